import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { CatalogDb } from '../db';
import type { CatalogDiscount, DiscountAppliesTo, DiscountValue } from '../domain/discount';
import type { DiscountChanges } from '../domain/discount-update';

const discountColumns = {
  id: true,
  mode: true,
  code: true,
  percent_off: true,
  amount_off: true,
  currency: true,
  event_ids: true,
  tier_ids: true,
  valid_from: true,
  valid_until: true,
  max_redemptions: true,
  max_redemptions_per_customer: true,
  times_redeemed: true,
  active: true,
  created_at: true,
  updated_at: true,
} as const;

/** Prisma keeps amounts as BigInt; every amount fits a double exactly (domain/discount MAX_AMOUNT_OFF). */
export function toCatalogDiscount<T extends { amount_off: bigint | null }>({ amount_off, ...rest }: T): Omit<T, 'amount_off'> & { amount_off: number | null } {
  return { ...rest, amount_off: amount_off === null ? null : Number(amount_off) };
}

export interface NewDiscount extends DiscountAppliesTo {
  code: string | null;
  value: DiscountValue;
  valid_from: Date | null;
  valid_until: Date | null;
  max_redemptions: number | null;
  max_redemptions_per_customer: number | null;
}

/** Discounts of one tenant. Every method takes the tenant; nothing here can see another's rows. */
export class DiscountRepository {
  constructor(private readonly db: CatalogDb) {}

  async create(tenant: Tenant, { value, ...fields }: NewDiscount): Promise<CatalogDiscount> {
    const row = await this.db.discount.create({
      data: {
        id: newId('dsc'),
        ...tenantScope(tenant),
        ...fields,
        percent_off: value.percent_off,
        amount_off: value.amount_off === null ? null : BigInt(value.amount_off),
        currency: value.currency,
      },
      select: discountColumns,
    });
    return toCatalogDiscount(row);
  }

  /** A discount of a fixed amount that names the event (its currency is the event's), if any. */
  async findAmountOffNaming(tenant: Tenant, eventId: string): Promise<{ id: string; currency: string } | null> {
    const found = await this.db.discount.findFirst({
      where: { event_ids: { has: eventId }, amount_off: { not: null }, ...tenantScope(tenant) },
      select: { id: true, currency: true },
    });
    return found && { id: found.id, currency: found.currency! };
  }

  async findById(tenant: Tenant, id: string): Promise<CatalogDiscount | null> {
    const row = await this.db.discount.findUnique({ where: { id, ...tenantScope(tenant) }, select: discountColumns });
    return row && toCatalogDiscount(row);
  }

  async findByCode(tenant: Tenant, code: string): Promise<CatalogDiscount | null> {
    const row = await this.db.discount.findUnique({ where: { account_id_mode_code: { code, ...tenantScope(tenant) } }, select: discountColumns });
    return row && toCatalogDiscount(row);
  }

  /**
   * Active discounts without a code that have a trigger and are valid at some instant of
   * [from, to]: the ones a quote at one of those instants may apply unasked (it checks its own).
   */
  async findAutomatic(tenant: Tenant, { from, to }: { from: Date; to: Date }): Promise<CatalogDiscount[]> {
    const rows = await this.db.discount.findMany({
      where: {
        ...tenantScope(tenant),
        code: null,
        active: true,
        triggers: { some: {} },
        AND: [{ OR: [{ valid_from: null }, { valid_from: { lte: to } }] }, { OR: [{ valid_until: null }, { valid_until: { gt: from } }] }],
      },
      orderBy: { id: 'asc' },
      select: discountColumns,
    });
    return rows.map(toCatalogDiscount);
  }

  /**
   * Applies the changes in one statement. A new max_redemptions is written only if it still
   * covers times_redeemed at that instant, so no concurrent redemption can end up above it.
   * False when nothing was written (no such discount, or the limit would not cover the count).
   */
  async update(tenant: Tenant, id: string, changes: DiscountChanges): Promise<boolean> {
    const { count } = await this.db.discount.updateMany({
      where: { id, ...tenantScope(tenant), ...(changes.max_redemptions == null ? {} : { times_redeemed: { lte: changes.max_redemptions } }) },
      data: changes,
    });
    return count === 1;
  }

  /** False when the discount is missing or already inactive. */
  async deactivate(tenant: Tenant, id: string): Promise<boolean> {
    const { count } = await this.db.discount.updateMany({ where: { id, active: true, ...tenantScope(tenant) }, data: { active: false } });
    return count === 1;
  }

  pages(tenant: Tenant): PageSource<CatalogDiscount> {
    const scope = tenantScope(tenant);
    return {
      exists: async (id) => (await this.db.discount.count({ where: { id, ...scope } })) > 0,
      fetch: async (take, beforeId) =>
        (
          await this.db.discount.findMany({
            where: { ...scope, ...idsBefore(beforeId) },
            orderBy: { id: 'desc' },
            take,
            select: discountColumns,
          })
        ).map(toCatalogDiscount),
    };
  }
}
