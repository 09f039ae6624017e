import { tenantKey, type InternalClaims, type Tenant } from '@ticketing/auth';
import { ApiError, refusalOf } from '@ticketing/errors';
import type { Logger } from '@ticketing/observability';
import type { TicketCodeSigner } from '@ticketing/ticket-codes';
import type { PaymentClaims } from '../../payments/payment-intents';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import { refusalError, toRefusal } from '../../domain/issuance';
import type { TicketingTicket } from '../../domain/ticket';
import { TicketRepository } from '../../repositories/ticket.repository';
import { UpgradeRepository, type TicketUpgrade } from '../../repositories/upgrade.repository';
import { redriveStalled } from '../redrive-stalled';
import type { ReturnUnitsUseCase } from '../return-units/return-units.usecase';
import { newChange } from './change-message';


/**
 * Takes a recorded upgrade as far as it can go (decision 0032), as DriveIssuanceUseCase does an
 * issuance: commit the new tier's unit (held in catalog under the upgrade's id), then in one
 * statement move the ticket (tier, price, next code version and code, its unit now sold under the
 * upgrade) and publish `ticket.upgraded`, then give the old unit back. Every step is idempotent,
 * so a retry or the re-driver finishes what a crash stopped; a hold that lapsed before the commit
 * refuses the upgrade (409 `upgrade_expired`) and the ticket stays as it was.
 */
export class DriveUpgradeUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: CatalogInventory,
    private readonly codes: TicketCodeSigner,
    private readonly units: ReturnUnitsUseCase,
    private readonly payments: PaymentClaims,
    private readonly logger: Logger,
  ) {}

  async execute(claims: InternalClaims, tenant: Tenant, upgradeId: string): Promise<TicketingTicket> {
    const upgrade = await new UpgradeRepository(this.prisma).find(tenant, upgradeId);
    if (!upgrade) throw new Error(`upgrade ${upgradeId} of ${tenantKey(tenant)} is not recorded`);
    switch (upgrade.state) {
      case 'done':
        return (await new TicketRepository(this.prisma).findById(tenant, upgrade.ticket_id))!;
      case 'refused':
        throw refusalError(upgrade.refusal!);
      case 'pending':
        return this.finish(claims, tenant, upgrade);
    }
  }

  async finish(claims: InternalClaims, tenant: Tenant, upgrade: TicketUpgrade): Promise<TicketingTicket> {
    const upgrades = new UpgradeRepository(this.prisma);
    const ticket = (await new TicketRepository(this.prisma).findById(tenant, upgrade.ticket_id))!;
    // A difference paid through a payment intent: the intent is claimed for this upgrade before its unit is sold (decision 0064).
    const intentId = upgrade.payment_type === 'payment_intent' ? upgrade.payment_reference! : null;
    const unpaid = intentId && (await refusalOf(() => this.payments.claim(claims, intentId, { id: upgrade.id, amount: upgrade.amount, currency: ticket.currency })));
    if (unpaid) {
      await this.catalog.release(claims, upgrade.id);
      await upgrades.refuse(tenant, upgrade, toRefusal(unpaid));
      return this.execute(claims, tenant, upgrade.id);
    }
    const lapsed = await refusalOf(() => this.catalog.commit(claims, upgrade.id));
    if (lapsed) {
      if (intentId) await this.payments.release(claims, intentId, upgrade.id);
      const expired = new ApiError('upgrade_expired', 'This upgrade stalled for over a minute, so the unit held for it was released and the ticket was not changed. Upgrade again with a new Idempotency-Key.');
      await upgrades.refuse(tenant, upgrade, toRefusal(lapsed.code === 'reservation_released' ? expired : lapsed));
      return this.execute(claims, tenant, upgrade.id);
    }
    const after = { ...ticket, tier_id: upgrade.to_tier_id, price: ticket.price + upgrade.amount, code_version: ticket.code_version + 1 };
    const code = this.codes.sign({ ticketId: ticket.id, eventId: ticket.event_id, version: after.code_version });
    const { message } = newChange(tenant, 'ticket.upgraded', after, { reason: null, from_tier_id: upgrade.from_tier_id, amount: upgrade.amount });
    const moved = await upgrades.complete(tenant, upgrade, code, message);
    // Another driver moved it first: the ticket is as it left it.
    if (!moved) return this.execute(claims, tenant, upgrade.id);
    await this.units.returnUnit(claims, { changeId: upgrade.id, tenant, reservationId: moved.oldReservationId, seat: null });
    return moved.ticket;
  }

  /**
   * Pending upgrades that have not moved for `stalledForMs`, driven now, and tickets taken that
   * long ago for an upgrade never recorded (its process died before), let go; answers how many.
   * A process merely that slow finds its ticket let go when it records, and gives its unit back.
   */
  async redrive(stalledForMs: number, clock: () => Date = () => new Date()): Promise<number> {
    const upgrades = new UpgradeRepository(this.prisma);
    const freed = await upgrades.letGoUnrecorded(new Date(clock().getTime() - stalledForMs));
    const settled = await redriveStalled({ what: 'upgrade', records: upgrades, drive: (claims, tenant, id) => this.execute(claims, tenant, id), stalledForMs, logger: this.logger, clock });
    return freed + settled;
  }

}
