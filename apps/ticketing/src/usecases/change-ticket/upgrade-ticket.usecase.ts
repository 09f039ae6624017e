import type { InternalClaims, Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import type { Logger } from '@ticketing/observability';
import { outcomeOf } from '../call-outcomes';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import type { TicketingTicket } from '../../domain/ticket';
import { assertChangeable, lostRace } from '../../domain/ticket-change';
import { upgradePrice, validUpgradeRequest } from '../../domain/upgrade';
import { TicketRepository } from '../../repositories/ticket.repository';
import { UpgradeRepository, type TicketUpgrade } from '../../repositories/upgrade.repository';
import { currentTier } from './changeable-ticket';
import type { DriveUpgradeUseCase } from './drive-upgrade.usecase';


/**
 * Upgrades a valid ticket to a higher-rank tier of its event (decision 0032), in the order an
 * issuance takes (0030): hold one unit of the new tier in catalog under a new change id (a
 * sold-out tier refuses here), record the upgrade as pending (the ticket then names it, so no
 * other change slips in; under an Idempotency-Key this is the recorded write, and a retry drives
 * the first call's upgrade), then drive it: commit, move the ticket, give the old unit back. The
 * new unit is held before the old one is released, so the ticket never loses its place.
 */
export class UpgradeTicketUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: CatalogInventory,
    private readonly drive: DriveUpgradeUseCase,
    private readonly logger: Logger,
  ) {}

  async execute(claims: InternalClaims, tenant: Tenant, command: { id: string; tier_id: string; payment?: { reference: string; amount: number } }): Promise<TicketingTicket> {
    const request = validUpgradeRequest(command);
    const ticket = await new TicketRepository(this.prisma).findById(tenant, request.ticket_id);
    if (!ticket) throw ApiError.resourceMissing('ticket', request.ticket_id);
    const tiers = await this.catalog.tiersOf(claims, ticket.event_id);
    const id = newId('tch');
    // Checked before anything is held; a replayed call's refusal here would be the same as the first's.
    const priced = await outcomeOf(Promise.resolve().then(() => this.price(ticket, tiers, request)));
    const held = 'error' in priced ? priced : await outcomeOf(this.catalog.reserve(claims, { id, event_id: ticket.event_id, tier_id: request.tier_id, quantity: 1, kind: 'sale', customer_id: ticket.customer_id }));
    let upgrade: TicketUpgrade;
    try {
      upgrade = await this.prisma.$transaction(async (tx) => {
        if ('error' in priced) throw priced.error;
        if ('error' in held) throw held.error;
        const begun = await new UpgradeRepository(tx).begin(tenant, ticket, { id, to_tier_id: request.tier_id, amount: priced.value, payment_reference: request.payment?.reference ?? null });
        if (!begun) throw lostRace((await new TicketRepository(tx).findById(tenant, ticket.id))!, 'upgraded');
        return begun;
      });
    } catch (error) {
      if (!('error' in held)) await this.giveBack(claims, id);
      throw error;
    }
    if (upgrade.id === id) return this.drive.finish(claims, tenant, upgrade);
    // A replay: the upgrade is an earlier call's, and the unit this call held is not needed.
    if (!('error' in held)) await this.giveBack(claims, id);
    return this.drive.execute(claims, tenant, upgrade.id);
  }

  private price(ticket: TicketingTicket, tiers: Awaited<ReturnType<CatalogInventory['tiersOf']>>, request: ReturnType<typeof validUpgradeRequest>): number {
    assertChangeable(ticket, 'upgraded');
    return upgradePrice(currentTier(ticket, tiers), tiers.find((tier) => tier.id === request.tier_id), request);
  }

  /** Best effort: a unit not given back now returns when its hold expires. */
  private async giveBack(claims: InternalClaims, id: string): Promise<void> {
    await this.catalog.release(claims, id).catch((error: unknown) => this.logger.warn({ err: error, change_id: id }, 'held unit not given back; it returns when the hold expires'));
  }
}
