import type { CATALOG_EVENT_TOPIC, CatalogEventFacts, EventOf } from '@ticketing/contracts';
import { recordFirstDelivery } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { EventSettingsRepository } from '../../repositories/event-settings.repository';
import { cancelValidTickets } from '../cancel-event-tickets/cancel-event-tickets';

export type CatalogEventChange = EventOf<typeof CATALOG_EVENT_TOPIC>;

type EventChange = Extract<CatalogEventChange, { data: CatalogEventFacts }>;
const isEventChange = (change: CatalogEventChange): change is EventChange => change.type.startsWith('event.');

/**
 * Keeps ticketing's copy of each event's status and waiting room (decision 0034) from catalog's
 * event messages, once however often Kafka delivers them. Tier and seat-map messages say nothing
 * ticketing keeps, and change nothing; nor does a message about an event of another tenant
 * than the one it names.
 */
export class RecordEventSettingsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly consumerName: string,
  ) {}

  /** True when this delivery changed the copy; false for a redelivery, a message older than the copy, another tenant's event, or a message about something else. */
  async execute(change: CatalogEventChange): Promise<boolean> {
    if (!isEventChange(change)) return false;
    const facts = change.data;
    const tenant = { accountId: change.account_id, mode: change.mode };
    const saved = await this.prisma.$transaction(async (tx) => {
      if (!(await recordFirstDelivery(tx, this.consumerName, change.id))) return false;
      return new EventSettingsRepository(tx).save(tenant, {
        event_id: facts.event_id,
        status: facts.status,
        waiting_room_enabled: facts.waiting_room.enabled,
        admission_rate_per_minute: facts.waiting_room.admission_rate_per_minute,
      }, new Date(change.occurred_at));
    });
    // Once the copy says canceled (which refuses changes to the tickets meanwhile), its tickets
    // follow the cancellation policy (decision 0032), a batch per transaction. Those this does not
    // get to (the process stops, a batch fails) and those of an issuance or upgrade in flight now
    // are canceled by CancelLateTicketsUseCase; a redelivery, already recorded, does nothing.
    if (saved && change.type === 'event.canceled') await cancelValidTickets(this.prisma, tenant, facts.event_id);
    return saved;
  }
}
