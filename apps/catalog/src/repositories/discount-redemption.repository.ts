import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { CatalogDb } from '../db';
import type { CatalogDiscountRedemption } from '../domain/discount-redemption';

const redemptionColumns = { discount_id: true, mode: true, order_id: true, customer_id: true, redeemed_at: true, released_at: true } as const;

/**
 * Redemptions and the discount's counter. The two writes that Prisma cannot express (an insert
 * that revives only a released row, and an increment guarded by another column) are SQL here;
 * callers run them in one transaction so the counter and the rows always agree.
 */
export class DiscountRedemptionRepository {
  constructor(private readonly db: CatalogDb) {}

  /**
   * Records the order against the discount, or revives the order's released redemption. False
   * when the order already counts, or when the tenant has no such discount. A concurrent claim
   * of the same order waits on the primary key until the first one commits or rolls back.
   */
  async claim(tenant: Tenant, redemption: { discount_id: string; order_id: string; customer_id: string | null; at: Date }): Promise<boolean> {
    const inserted = await this.db.$executeRaw`
      INSERT INTO discount_redemptions (discount_id, order_id, account_id, mode, customer_id, redeemed_at)
      SELECT id, ${redemption.order_id}, account_id, mode, ${redemption.customer_id}, ${redemption.at}
        FROM discounts WHERE id = ${redemption.discount_id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode}
      ON CONFLICT (discount_id, order_id) DO UPDATE
        SET customer_id = EXCLUDED.customer_id, redeemed_at = EXCLUDED.redeemed_at, released_at = NULL
        WHERE discount_redemptions.released_at IS NOT NULL`;
    return inserted === 1;
  }

  /**
   * Adds one to times_redeemed only if the discount is usable at `at` and below its maximum at
   * that instant. The row lock it takes makes concurrent redemptions of one discount queue here,
   * so none can pass a limit another has just reached. Null when refused.
   */
  async countRedemption(tenant: Tenant, discountId: string, at: Date): Promise<{ times_redeemed: number; max_redemptions_per_customer: number | null } | null> {
    const rows = await this.db.$queryRaw<Array<{ times_redeemed: number; max_redemptions_per_customer: number | null }>>`
      UPDATE discounts SET times_redeemed = times_redeemed + 1, updated_at = ${at}
       WHERE id = ${discountId} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND active
         AND (valid_from IS NULL OR valid_from <= ${at}) AND (valid_until IS NULL OR valid_until > ${at})
         AND (max_redemptions IS NULL OR times_redeemed < max_redemptions)
      RETURNING times_redeemed, max_redemptions_per_customer`;
    return rows[0] ?? null;
  }

  /** Gives back one redemption; the CHECK constraint keeps the counter from going below zero. */
  async uncountRedemption(tenant: Tenant, discountId: string): Promise<number> {
    const discount = await this.db.discount.update({
      where: { id: discountId, ...tenantScope(tenant) },
      data: { times_redeemed: { decrement: 1 } },
      select: { times_redeemed: true },
    });
    return discount.times_redeemed;
  }

  /**
   * Redemptions by this customer that still count, this transaction's own included. Run after
   * countRedemption: by then every other redemption of the discount has committed or waits.
   */
  countForCustomer(tenant: Tenant, discountId: string, customerId: string): Promise<number> {
    return this.db.discountRedemption.count({ where: { discount_id: discountId, customer_id: customerId, released_at: null, ...tenantScope(tenant) } });
  }

  /** Per discount, the customer's redemptions that still count (absent: none). */
  async countsForCustomer(tenant: Tenant, customerId: string, discountIds: readonly string[]): Promise<Map<string, number>> {
    const groups = await this.db.discountRedemption.groupBy({
      by: ['discount_id'],
      where: { discount_id: { in: [...discountIds] }, customer_id: customerId, released_at: null, ...tenantScope(tenant) },
      _count: { _all: true },
    });
    return new Map(groups.map((group) => [group.discount_id, group._count._all]));
  }

  /** False when the order has no redemption of the discount that still counts. */
  async release(tenant: Tenant, discountId: string, orderId: string, at: Date): Promise<boolean> {
    const { count } = await this.db.discountRedemption.updateMany({
      where: { discount_id: discountId, order_id: orderId, released_at: null, ...tenantScope(tenant) },
      data: { released_at: at },
    });
    return count === 1;
  }

  find(tenant: Tenant, discountId: string, orderId: string): Promise<CatalogDiscountRedemption | null> {
    return this.db.discountRedemption.findUnique({ where: { discount_id_order_id: { discount_id: discountId, order_id: orderId }, ...tenantScope(tenant) }, select: redemptionColumns });
  }
}
