import type { InternalClaims, Tenant } from '@ticketing/auth';
import { TICKETING_SEAT_TOPIC } from '@ticketing/contracts';
import { requiredIdParam } from '@ticketing/fields';
import { outboxRow, type OutboxRow } from '@ticketing/kafka';
import type { Logger } from '@ticketing/observability';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import type { TicketingTicket } from '../../domain/ticket';
import { assertChangeable, lostRace, RETIREMENTS, validRetirementReason, type Retirement } from '../../domain/ticket-change';
import { TicketRepository } from '../../repositories/ticket.repository';
import type { ReturnUnitsUseCase } from '../return-units/return-units.usecase';
import { ticketOfLiveEvent } from './changeable-ticket';
import { newChange } from './change-message';

/** `seat.released` for a seated ticket's seat, which its retirement frees; null for an unseated ticket. */
function seatFreed(tenant: Tenant, ticket: TicketingTicket, status: 'refunded' | 'revoked'): OutboxRow<unknown> | null {
  if (!ticket.seat_id) return null;
  return outboxRow({ topic: TICKETING_SEAT_TOPIC, type: 'seat.released', aggregateId: ticket.event_id, tenant, data: { event_id: ticket.event_id, seat_ids: [ticket.seat_id], reason: status } });
}

/**
 * Refunds or revokes a valid ticket (decision 0032). One transaction retires it, keeps the change
 * in its history with its unit still to give back, frees a seated ticket's seat (0033), and
 * publishes `ticket.refunded` or `ticket.revoked`; then catalog is asked for the unit back. If
 * that call fails the answer is still the retired ticket (the change is committed) and the
 * re-driver gives the unit back. A ticket of an event catalog reports canceled is not retired:
 * the cancellation retires it.
 * Money is not moved here: an external or comp ticket's refund is recorded; paid tickets come
 * with payments.
 */
export class RetireTicketUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly units: ReturnUnitsUseCase,
    private readonly catalog: CatalogInventory,
    private readonly logger: Logger,
  ) {}

  async execute(claims: InternalClaims, tenant: Tenant, retirement: Retirement, command: { id: string; reason: string }): Promise<TicketingTicket> {
    const id = requiredIdParam(command.id, 'id');
    const reason = validRetirementReason(retirement, command.reason);
    const { status, verb, message } = RETIREMENTS[retirement];
    const ticket = await ticketOfLiveEvent(new TicketRepository(this.prisma), this.catalog, this.logger, { claims, tenant, id, verb });
    const { retired, changeId } = await this.prisma.$transaction(async (tx) => {
      // Asserted here, where a retry of a committed change is replayed instead (ticketOfLiveEvent).
      assertChangeable(ticket, verb);
      const tickets = new TicketRepository(tx);
      const change = newChange(tenant, message, { ...ticket, status }, { reason });
      const done = await tickets.retire(tenant, ticket, { kind: retirement, status, reason }, change, seatFreed(tenant, ticket, status));
      if (!done) throw lostRace((await tickets.findById(tenant, id))!, verb);
      return { retired: done, changeId: change.id };
    });
    await this.units.returnUnit(claims, { changeId, tenant, reservationId: retired.reservation_id });
    return retired;
  }
}
