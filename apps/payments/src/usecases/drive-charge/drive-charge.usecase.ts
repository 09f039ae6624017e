import { claimsForTenant, type InternalClaims, type Tenant } from '@ticketing/auth';
import { refusalOf } from '@ticketing/errors';
import type { CatalogOrders } from '../../catalog/catalog-orders';
import type { PrismaClient } from '../../db';
import type { Order } from '../../domain/order';
import type { PaymentIntent } from '../../domain/payment-intent';
import type { Processors } from '../../processors/payment-processor';
import type { Charge } from '../../repositories/charge.repository';
import { PaymentIntentRepository } from '../../repositories/payment-intent.repository';
import type { SettleChargeUseCase } from '../settle-charge/settle-charge.usecase';


const ORDER_LOST = {
  code: 'order_expired',
  message: 'The order’s tickets were released before the payment completed, so the charge was given back in full. Create a new payment intent.',
};

/**
 * Takes an open charge to its outcome (decisions 0061, 0062): counts an order against its
 * discount, asks the processor under the charge's id, sells an order's units once it is paid,
 * then settles. Every step is idempotent by its ids, so a confirmation and the re-driver run it
 * alike, and again after a crash at any point. An order whose discount is used up meanwhile
 * fails without a charge; one whose units were lost (its hold lapsed) has its charge given back
 * and the intent canceled: money is never kept without the tickets it paid for.
 */
export class DriveChargeUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly processors: Processors,
    private readonly catalog: CatalogOrders,
    private readonly settle: SettleChargeUseCase,
  ) {}

  /** `paying`: the charge's intent as its confirmation read it; read here when not given (the re-driver, the sandbox's page). */
  async execute(charge: Charge, claims?: InternalClaims, paying?: Pick<PaymentIntent, 'id' | 'order'>): Promise<PaymentIntent> {
    const tenant: Tenant = { accountId: charge.account_id, mode: charge.mode };
    const caller = claims ?? claimsForTenant(tenant);
    const { id, order } = paying ?? (await new PaymentIntentRepository(this.prisma).findById(tenant, charge.payment_intent_id))!;
    const discountId = order?.discount_id;
    if (discountId) {
      const refused = await refusalOf(() => this.catalog.redeem(caller, discountId, id));
      if (refused) return this.settle.execute(charge, { status: 'failed', code: 'discount_not_applicable', message: `The order's discount can no longer be used: ${refused.message}` });
    }
    const processor = this.processors.of(charge.mode);
    const outcome = await processor.charge({ chargeId: charge.id, amount: charge.amount, currency: charge.currency, paymentMethod: charge.payment_method });
    if (outcome.status === 'failed' && discountId) await this.catalog.releaseRedemption(caller, discountId, id).catch(() => undefined);
    if (outcome.status !== 'succeeded' || !order) return this.settle.execute(charge, outcome);
    return this.sell(caller, charge, order, () => processor.reverse(charge.id, ORDER_LOST));
  }

  /** Sells the paid order's units, then settles the charge as succeeded; units lost meanwhile give the charge back. */
  private async sell(claims: InternalClaims, charge: Charge, order: Order, giveBack: () => Promise<void>): Promise<PaymentIntent> {
    const lost = await refusalOf(() => this.catalog.commit(claims, order.lines));
    if (!lost) return this.settle.execute(charge, { status: 'succeeded' });
    await giveBack();
    await this.catalog.withdraw(claims, order.lines).catch(() => undefined);
    return this.settle.execute(charge, { status: 'failed', ...ORDER_LOST }, 'expired');
  }
}
