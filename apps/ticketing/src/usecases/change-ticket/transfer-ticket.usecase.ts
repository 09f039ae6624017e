import type { InternalClaims, Tenant } from '@ticketing/auth';
import type { EarlyKeyClaims } from '@ticketing/db';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import type { Logger } from '@ticketing/observability';
import type { TicketCodeSigner } from '@ticketing/ticket-codes';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import { validCustomerChoice, type CustomerChoice, type CustomerReference } from '../../domain/customer';
import type { TicketingTicket } from '../../domain/ticket';
import { assertChangeable, lostRace } from '../../domain/ticket-change';
import { CustomerRepository } from '../../repositories/customer.repository';
import { TicketRepository } from '../../repositories/ticket.repository';
import { ticketOfLiveEvent } from './changeable-ticket';
import { newChange } from './change-message';

/**
 * Gives a valid ticket to another holder (found by email or created, or named by id) in one
 * transaction: the ticket gets the next code version and a code signed for it, so the old code
 * stops scanning; the change is kept in its history and `ticket.transferred` is published. A
 * ticket of an event catalog reports canceled is not transferred.
 */
export class TransferTicketUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly codes: TicketCodeSigner,
    private readonly catalog: CatalogInventory,
    private readonly logger: Logger,
    private readonly keys: EarlyKeyClaims,
  ) {}

  /**
   * Under an Idempotency-Key the key is claimed first (decision 0041): a transferred ticket is still
   * valid, so a retry would otherwise ask catalog again, and be refused if the event was canceled
   * since, though its transfer was made.
   */
  async execute(claims: InternalClaims, tenant: Tenant, command: { id: string; customer?: CustomerReference }): Promise<TicketingTicket> {
    const id = requiredIdParam(command.id, 'id');
    const choice = validCustomerChoice(command.customer);
    return this.keys.run(
      () => this.transfer(claims, tenant, id, choice),
      async (earlier) => earlier as TicketingTicket,
    );
  }

  private async transfer(claims: InternalClaims, tenant: Tenant, id: string, choice: CustomerChoice): Promise<TicketingTicket> {
    const ticket = await ticketOfLiveEvent(new TicketRepository(this.prisma), this.catalog, this.logger, { claims, tenant, id, verb: 'transferred' });
    return this.prisma.$transaction(async (tx) => {
      // Asserted here, where a retry of a committed change is replayed instead (ticketOfLiveEvent).
      assertChangeable(ticket, 'transferred');
      const tickets = new TicketRepository(tx);
      const holder = await new CustomerRepository(tx).resolve(tenant, choice);
      const alreadyHeld = () =>
        new ApiError('ticket_already_held', `Customer '${holder.id}' already holds ticket '${id}'; nothing was changed.`, { param: 'customer_id' in choice ? 'customer_id' : 'customer' });
      if (holder.id === ticket.customer_id) throw alreadyHeld();
      const after = { ...ticket, customer_id: holder.id, code_version: ticket.code_version + 1 };
      const code = this.codes.sign({ ticketId: id, eventId: ticket.event_id, version: after.code_version });
      const change = newChange(tenant, 'ticket.transferred', after, { reason: null, from_customer_id: ticket.customer_id });
      const transferred = await tickets.transfer(tenant, ticket, holder.id, code, change);
      if (!transferred) {
        // A repeated transfer (a double submit) that lost the race finds the ticket already with its holder.
        const now = (await tickets.findById(tenant, id))!;
        throw now.status === 'valid' && now.customer_id === holder.id ? alreadyHeld() : lostRace(now, 'transferred');
      }
      return transferred;
    });
  }
}
