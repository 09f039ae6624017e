import type { InternalClaims, Tenant } from '@ticketing/auth';
import { requiredIdParam } from '@ticketing/fields';
import type { Logger } from '@ticketing/observability';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import type { TicketingTicket } from '../../domain/ticket';
import { assertChangeable, lostRace, RETIREMENTS, validRetirementReason, type Retirement } from '../../domain/ticket-change';
import { IssuanceRepository } from '../../repositories/issuance.repository';
import { TicketRepository } from '../../repositories/ticket.repository';
import type { ReturnUnitsUseCase } from '../return-units/return-units.usecase';
import { ticketOfLiveEvent } from './changeable-ticket';
import { newChange } from './change-message';

/**
 * Refunds or revokes a valid ticket (decision 0032). One transaction retires it, keeps the change
 * in its history with its unit still to give back, and publishes `ticket.refunded` or
 * `ticket.revoked`; then catalog is asked for the unit back, and a seated ticket's seat is freed
 * with it (0033). If that call fails the answer is still the retired ticket (the change is
 * committed) and the re-driver gives the unit back and frees the seat. A ticket of an event
 * catalog reports canceled is not retired: the cancellation retires it.
 * Money is not moved here: an external or comp ticket's refund is recorded; `ticket.refunded`
 * names a payment intent that paid the ticket, and payments returns its money (decision 0064).
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
    // A refund says how the ticket was paid, so that payments returns a payment intent's money (decision 0064).
    const payment = retirement === 'refund' ? ((await new IssuanceRepository(this.prisma).find(tenant, ticket.issuance_id))?.payment ?? null) : undefined;
    const { retired, changeId } = await this.prisma.$transaction(async (tx) => {
      // Asserted here, where a retry of a committed change is replayed instead (ticketOfLiveEvent).
      assertChangeable(ticket, verb);
      const tickets = new TicketRepository(tx);
      const change = newChange(tenant, message, { ...ticket, status }, { reason, ...(payment !== undefined && { payment: payment && { type: payment.type, reference: payment.reference } }) });
      const done = await tickets.retire(tenant, ticket, { kind: retirement, status, reason }, change);
      if (!done) throw lostRace((await tickets.findById(tenant, id))!, verb);
      return { retired: done, changeId: change.id };
    });
    const seat = retired.seat_id ? { eventId: retired.event_id, seatId: retired.seat_id, reason: status } : null;
    await this.units.returnUnit(claims, { changeId, tenant, reservationId: retired.reservation_id, seat });
    return retired;
  }
}
