import { isMode, type Tenant } from '@ticketing/auth';
import type { TicketingDb } from '../db';

/** What ticketing knows of one of catalog's events (decision 0034). */
export interface EventSettings {
  event_id: string;
  status: string;
  waiting_room_enabled: boolean;
  admission_rate_per_minute: number | null;
}

/** Catalog's events as ticketing last heard of them. Reads take the tenant; the consumer writes what catalog said. */
export class EventSettingsRepository {
  constructor(private readonly db: TicketingDb) {}

  async find(tenant: Tenant, eventId: string): Promise<EventSettings | null> {
    return this.db.eventSettings.findUnique({
      where: { event_id: eventId, account_id: tenant.accountId, mode: tenant.mode },
      select: { event_id: true, status: true, waiting_room_enabled: true, admission_rate_per_minute: true },
    });
  }

  /**
   * The events of every tenant canceled, as far as ticketing heard, at or after `since`, that
   * still have a valid ticket not being upgraded: the ones their cancellation policy must reach.
   */
  async canceledWithValidTickets(since: Date): Promise<Array<{ tenant: Tenant; eventId: string }>> {
    const rows = await this.db.$queryRaw<Array<{ event_id: string; account_id: string; mode: string }>>`
      SELECT s.event_id, s.account_id, s.mode FROM event_settings s
       WHERE s.status = 'canceled' AND s.updated_at >= ${since}
         AND EXISTS (SELECT 1 FROM tickets t
                      WHERE t.account_id = s.account_id AND t.mode = s.mode AND t.event_id = s.event_id AND t.status = 'valid' AND t.pending_change_id IS NULL)`;
    return rows.map(({ event_id, account_id, mode }) => {
      if (!isMode(mode)) throw new Error(`event settings of ${event_id} have an unknown mode: ${mode}`);
      return { tenant: { accountId: account_id, mode }, eventId: event_id };
    });
  }

  /**
   * Keeps what catalog said of the tenant's event at `asOf`. False, changing nothing, when the
   * event is another tenant's (a message naming the wrong account must not reach that tenant's
   * event); when the copy already holds what catalog said later (Kafka delivers one event's
   * messages in order, but a dead letter replayed, or a redelivery, can arrive after newer ones);
   * or when the copy already says canceled or completed: catalog changes a final event no more,
   * so a message saying otherwise is an older one (a black-box probe replayed a `published` after
   * the cancellation, and the waiting room admitted buyers again).
   */
  async save(tenant: Tenant, settings: EventSettings, asOf: Date): Promise<boolean> {
    const saved = await this.db.$executeRaw`
      INSERT INTO event_settings (event_id, account_id, mode, status, waiting_room_enabled, admission_rate_per_minute, settings_as_of, updated_at)
      VALUES (${settings.event_id}, ${tenant.accountId}, ${tenant.mode}, ${settings.status}, ${settings.waiting_room_enabled}, ${settings.admission_rate_per_minute}, ${asOf}, now())
      ON CONFLICT (event_id) DO UPDATE
        SET status = EXCLUDED.status, waiting_room_enabled = EXCLUDED.waiting_room_enabled,
            admission_rate_per_minute = EXCLUDED.admission_rate_per_minute, settings_as_of = EXCLUDED.settings_as_of, updated_at = EXCLUDED.updated_at
        WHERE event_settings.account_id = EXCLUDED.account_id AND event_settings.mode = EXCLUDED.mode
          AND event_settings.status NOT IN ('canceled', 'completed')
          AND (event_settings.settings_as_of IS NULL OR event_settings.settings_as_of <= EXCLUDED.settings_as_of)`;
    return saved === 1;
  }
}
