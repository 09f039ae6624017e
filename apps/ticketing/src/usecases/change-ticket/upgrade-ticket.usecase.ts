import { isRefusal } from '@ticketing/errors';
import type { InternalClaims, Tenant } from '@ticketing/auth';
import type { EarlyKeyClaims, OutsideWork } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import type { Logger } from '@ticketing/observability';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import type { TicketingTicket } from '../../domain/ticket';
import { assertChangeable, lostRace } from '../../domain/ticket-change';
import { asUpgradeRefusal, upgradePrice, upgradeUnit, validUpgradeRequest, type UpgradeRequest } from '../../domain/upgrade';
import { TicketRepository } from '../../repositories/ticket.repository';
import { UpgradeRepository, type TicketUpgrade } from '../../repositories/upgrade.repository';
import { currentTier } from './changeable-ticket';
import type { DriveUpgradeUseCase } from './drive-upgrade.usecase';


/**
 * Upgrades a valid ticket to a higher-rank tier of its event (decision 0032), in the order an
 * issuance takes (0030): under an Idempotency-Key, claim the key first (0041; a retry of a
 * recorded upgrade drives that upgrade instead); take the ticket for a new change id, so of
 * racing upgrades of one ticket (a double submit) only one goes on and the others are refused
 * having held nothing; hold one unit of the new tier in catalog under the change id (a refusal
 * there, such as sold out, lets go of the ticket); record the upgrade as pending; then drive it:
 * commit, move the ticket, give the old unit back. The new unit is held before the old one is
 * released, so the ticket never loses its place. A retry that takes over the claim of a call
 * that died unrecorded first gives back what that call held: its unit, and the ticket.
 */
export class UpgradeTicketUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: CatalogInventory,
    private readonly drive: DriveUpgradeUseCase,
    private readonly keys: EarlyKeyClaims,
    private readonly logger: Logger,
  ) {}

  async execute(claims: InternalClaims, tenant: Tenant, command: { id: string; tier_id: string; payment?: { reference: string; amount: number }; payment_intent_id?: string }): Promise<TicketingTicket> {
    const request = validUpgradeRequest(command);
    const id = newId('tch');
    return this.keys.run(
      () => this.upgrade(claims, tenant, request, id),
      (earlier) => this.drive.execute(claims, tenant, (earlier as TicketUpgrade).id),
      this.heldUnder(claims, tenant, request, id),
    );
  }

  /** What an upgrade holds under its change id before it is recorded (the ticket, a unit of the new tier), and how a retry gives it back. */
  private heldUnder(claims: InternalClaims, tenant: Tenant, request: UpgradeRequest, id: string): OutsideWork {
    return {
      id,
      undo: async (lapsedId) => {
        await this.catalog.withdraw(claims, lapsedId, upgradeUnit(request));
        await new UpgradeRepository(this.prisma).letGo(tenant, request.ticket_id, lapsedId);
      },
    };
  }

  private async upgrade(claims: InternalClaims, tenant: Tenant, request: UpgradeRequest, id: string): Promise<TicketingTicket> {
    const tickets = new TicketRepository(this.prisma);
    const upgrades = new UpgradeRepository(this.prisma);
    const ticket = await tickets.getById(tenant, request.ticket_id);
    const tiers = await this.catalog.tiersOf(claims, ticket.event_id);
    const price = this.price(ticket, tiers, request);
    if (!(await upgrades.take(tenant, ticket, id))) throw lostRace((await tickets.findById(tenant, ticket.id))!, 'upgraded');
    try {
      await this.catalog.reserve(claims, { id, event_id: ticket.event_id, customer_id: ticket.customer_id, ...upgradeUnit(request) });
    } catch (error) {
      // Refused (sold out, say): nothing is held. An unknown outcome may hold the unit, now or once catalog carries the call out.
      if (!isRefusal(error)) await this.withdraw(claims, id, request);
      await upgrades.letGo(tenant, ticket.id, id);
      throw asUpgradeRefusal(error, request.tier_id);
    }
    let upgrade: TicketUpgrade;
    try {
      upgrade = await this.prisma.$transaction(async (tx) => {
        const begun = await new UpgradeRepository(tx).begin(tenant, ticket, { id, to_tier_id: request.tier_id, amount: price, payment_type: request.payment?.type ?? null, payment_reference: request.payment?.reference ?? null });
        if (!begun) throw lostRace((await new TicketRepository(tx).findById(tenant, ticket.id))!, 'upgraded');
        return begun;
      });
    } catch (error) {
      await this.giveBack(claims, id);
      await upgrades.letGo(tenant, ticket.id, id);
      throw error;
    }
    return this.drive.finish(claims, tenant, upgrade);
  }

  private price(ticket: TicketingTicket, tiers: Awaited<ReturnType<CatalogInventory['tiersOf']>>, request: UpgradeRequest): number {
    assertChangeable(ticket, 'upgraded');
    return upgradePrice({ tier: currentTier(ticket, tiers), price: ticket.price }, tiers.find((tier) => tier.id === request.tier_id), request);
  }

  /** Best effort: a unit not withdrawn now returns when its hold expires, if catalog ever held it. */
  private async withdraw(claims: InternalClaims, id: string, request: UpgradeRequest): Promise<void> {
    await this.catalog.withdraw(claims, id, upgradeUnit(request)).catch((error: unknown) => this.logger.warn({ err: error, change_id: id }, 'unit of an unknown hold not withdrawn; if held, it returns when the hold expires'));
  }

  /** Best effort: a unit not given back now returns when its hold expires. */
  private async giveBack(claims: InternalClaims, id: string): Promise<void> {
    await this.catalog.release(claims, id).catch((error: unknown) => this.logger.warn({ err: error, change_id: id }, 'held unit not given back; it returns when the hold expires'));
  }
}
