import type { InternalClaims, Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient, TicketingDb } from '../../db';
import type { TicketingCustomer } from '../../domain/customer';
import { assertPaidInFull, validSaleRequest, type SaleCommand, type SaleRequest, type TicketingIssuance } from '../../domain/issuance';
import { CustomerRepository } from '../../repositories/customer.repository';
import { IssuanceRepository } from '../../repositories/issuance.repository';
import type { DriveIssuanceUseCase, IssuedTickets } from '../drive-issuance/drive-issuance.usecase';

/**
 * Sells tickets paid elsewhere (decision 0030). One transaction records the issuance as
 * pending, after checking the payment against catalog's quote and finding or creating the
 * customer; under an Idempotency-Key that transaction is the recorded write, so a retry skips
 * it and gets the same issuance. Then the issuance is driven: units reserved and committed in
 * catalog, tickets created. A retry of a call cut off midway finishes the same issuance.
 */
export class IssueTicketsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: CatalogInventory,
    private readonly drive: DriveIssuanceUseCase,
  ) {}

  async execute(claims: InternalClaims, tenant: Tenant, command: SaleCommand): Promise<IssuedTickets> {
    const request = validSaleRequest(command);
    const issuance = await this.prisma.$transaction((tx) => this.recordPending(tx, claims, tenant, request));
    return this.drive.execute(claims, tenant, issuance.id);
  }

  /**
   * Holds the transaction across catalog's quote: the quote must be checked only when the
   * issuance is first recorded, never on a retry that replays it (prices may have moved since).
   */
  private async recordPending(tx: TicketingDb, claims: InternalClaims, tenant: Tenant, request: SaleRequest): Promise<TicketingIssuance> {
    const customers = new CustomerRepository(tx);
    const choice = request.customer;
    // A customer created here is rolled back with the rest if the payment does not match.
    const customer = 'customer_id' in choice ? await this.existingCustomer(customers, tenant, choice.customer_id) : await customers.findOrCreate(tenant, choice.details);
    const quote = await this.catalog.quote(claims, { event_id: request.event_id, tier_id: request.tier_id, quantity: request.quantity, customer_id: customer.id });
    assertPaidInFull(request.payment, quote);
    return new IssuanceRepository(tx).createPending(tenant, {
      id: newId('iss'),
      event_id: request.event_id,
      tier_id: request.tier_id,
      customer_id: customer.id,
      kind: 'sale',
      quantity: request.quantity,
      payment: request.payment,
      amount: quote.total,
      currency: quote.currency,
      comp_reason: null,
      metadata: request.metadata,
    });
  }

  private async existingCustomer(customers: CustomerRepository, tenant: Tenant, id: string): Promise<TicketingCustomer> {
    const customer = await customers.findById(tenant, id);
    if (!customer) throw ApiError.resourceMissing('customer', id, 'customer_id');
    return customer;
  }
}
