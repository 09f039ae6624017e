import type { Tenant } from '@ticketing/auth';
import { TICKETING_TICKET_TOPIC, type TicketingTicketPayloads } from '@ticketing/contracts';
import { newId } from '@ticketing/ids';
import { outboxRow } from '@ticketing/kafka';
import type { TicketingTicket } from '../../domain/ticket';
import type { ChangeRecord } from '../../repositories/ticket.repository';

type ChangeType = Exclude<keyof TicketingTicketPayloads, 'ticket.issued'>;

/**
 * A new change of a ticket: its id and the message announcing the ticket as the change leaves it
 * (`after`), keyed by the event so one event's changes stay in order.
 */
export function newChange(
  tenant: Tenant,
  type: ChangeType,
  after: TicketingTicket,
  details: { reason: string | null; from_customer_id?: string; from_tier_id?: string; amount?: number; payment?: { type: 'external' | 'payment_intent'; reference: string } | null },
): ChangeRecord {
  const id = newId('tch');
  const message = outboxRow({
    topic: TICKETING_TICKET_TOPIC,
    type,
    aggregateId: after.event_id,
    tenant,
    data: {
      change_id: id,
      ticket_id: after.id,
      event_id: after.event_id,
      tier_id: after.tier_id,
      customer_id: after.customer_id,
      status: after.status,
      code_version: after.code_version,
      price: after.price,
      currency: after.currency,
      ...details,
    } as TicketingTicketPayloads[typeof type],
  });
  return { id, message };
}
