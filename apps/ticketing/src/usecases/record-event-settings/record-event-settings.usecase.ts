import type { CATALOG_EVENT_TOPIC, CatalogEventFacts, EventOf } from '@ticketing/contracts';
import { recordFirstDelivery } from '@ticketing/kafka';
import type { Tenant } from '@ticketing/auth';
import type { PrismaClient, TicketingDb } from '../../db';
import { TicketRepository } from '../../repositories/ticket.repository';
import { newChange } from '../change-ticket/change-message';
import { EventSettingsRepository } from '../../repositories/event-settings.repository';

export type CatalogEventChange = EventOf<typeof CATALOG_EVENT_TOPIC>;

const CANCEL_BATCH = 500;
const CANCEL_REASON = 'The event was canceled.';

/**
 * The policy for a canceled event (decision 0032): each of its valid tickets becomes `canceled`,
 * kept in its history and announced with `ticket.canceled`, in the transaction that applies the
 * message. Checked-in, refunded and revoked tickets stay as they are. Money is not moved here.
 */
async function cancelTicketsOf(tx: TicketingDb, tenant: Tenant, eventId: string): Promise<void> {
  const tickets = new TicketRepository(tx);
  for (;;) {
    const batch = await tickets.lockValidOfEvent(tenant, eventId, CANCEL_BATCH);
    if (batch.length === 0) return;
    const changes = batch.map((ticket) => ({ ticket, change: newChange(tenant, 'ticket.canceled', { ...ticket, status: 'canceled' }, { reason: CANCEL_REASON }) }));
    await tickets.cancel(tenant, changes, CANCEL_REASON);
  }
}

type EventChange = Extract<CatalogEventChange, { data: CatalogEventFacts }>;
const isEventChange = (change: CatalogEventChange): change is EventChange => change.type.startsWith('event.');

/**
 * Keeps ticketing's copy of each event's status and waiting room (decision 0034) from catalog's
 * event messages, once however often Kafka delivers them. Tier and seat-map messages say nothing
 * ticketing keeps, and change nothing.
 */
export class RecordEventSettingsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly consumerName: string,
  ) {}

  /** True when this delivery changed the copy; false for a redelivery or a message about something else. */
  execute(change: CatalogEventChange): Promise<boolean> {
    if (!isEventChange(change)) return Promise.resolve(false);
    return this.prisma.$transaction(async (tx) => {
      if (!(await recordFirstDelivery(tx, this.consumerName, change.id))) return false;
      const facts = change.data;
      const tenant = { accountId: change.account_id, mode: change.mode };
      if (change.type === 'event.canceled') await cancelTicketsOf(tx, tenant, facts.event_id);
      await new EventSettingsRepository(tx).save(
        tenant,
        {
          event_id: facts.event_id,
          status: facts.status,
          waiting_room_enabled: facts.waiting_room.enabled,
          admission_rate_per_minute: facts.waiting_room.admission_rate_per_minute,
        },
      );
      return true;
    });
  }
}
