import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { CatalogDb } from '../db';
import type { CatalogDiscountTrigger, TriggerCondition } from '../domain/discount-trigger';

const triggerColumns = {
  id: true,
  mode: true,
  discount_id: true,
  kind: true,
  min_quantity: true,
  starts_at: true,
  ends_at: true,
  segment_id: true,
  tier_ids: true,
  created_at: true,
} as const;

interface TriggerRow {
  id: string;
  mode: string;
  discount_id: string;
  kind: string;
  min_quantity: number | null;
  starts_at: Date | null;
  ends_at: Date | null;
  segment_id: string | null;
  tier_ids: string[];
  created_at: Date;
}

/** The table's CHECK constraint guarantees the columns of the row's kind are set. */
function toCondition(row: TriggerRow): TriggerCondition {
  switch (row.kind) {
    case 'min_quantity':
      return { kind: 'min_quantity', quantity: row.min_quantity! };
    case 'purchase_window':
      return { kind: 'purchase_window', starts_at: row.starts_at, ends_at: row.ends_at };
    case 'customer_segment':
      return { kind: 'customer_segment', segment_id: row.segment_id! };
    case 'tier_bundle':
      return { kind: 'tier_bundle', tier_ids: row.tier_ids };
    default:
      throw new Error(`discount trigger ${row.id} has an unknown kind '${row.kind}'`);
  }
}

function toTrigger(row: TriggerRow): CatalogDiscountTrigger {
  return { id: row.id, mode: row.mode, discount_id: row.discount_id, condition: toCondition(row), created_at: row.created_at };
}

function conditionColumns(condition: TriggerCondition) {
  return {
    kind: condition.kind,
    min_quantity: condition.kind === 'min_quantity' ? condition.quantity : null,
    starts_at: condition.kind === 'purchase_window' ? condition.starts_at : null,
    ends_at: condition.kind === 'purchase_window' ? condition.ends_at : null,
    segment_id: condition.kind === 'customer_segment' ? condition.segment_id : null,
    tier_ids: condition.kind === 'tier_bundle' ? condition.tier_ids : [],
  };
}

/** Triggers of one tenant's discounts. Every method takes the tenant. */
export class DiscountTriggerRepository {
  constructor(private readonly db: CatalogDb) {}

  async create(tenant: Tenant, discountId: string, condition: TriggerCondition): Promise<CatalogDiscountTrigger> {
    const row = await this.db.discountTrigger.create({
      data: { id: newId('dtr'), ...tenantScope(tenant), discount_id: discountId, ...conditionColumns(condition) },
      select: triggerColumns,
    });
    return toTrigger(row);
  }

  async findById(tenant: Tenant, discountId: string, id: string): Promise<CatalogDiscountTrigger | null> {
    const row = await this.db.discountTrigger.findUnique({ where: { id, discount_id: discountId, ...tenantScope(tenant) }, select: triggerColumns });
    return row && toTrigger(row);
  }

  /** False when there was no such trigger. Its id stays behind as a list cursor (`pages`). */
  async delete(tenant: Tenant, discountId: string, id: string): Promise<boolean> {
    const deleted = await this.db.$executeRaw`
      WITH gone AS (
        DELETE FROM discount_triggers
        WHERE id = ${id} AND discount_id = ${discountId} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode}
        RETURNING id, account_id, mode, discount_id
      )
      INSERT INTO deleted_discount_triggers (id, account_id, mode, discount_id) SELECT id, account_id, mode, discount_id FROM gone`;
    return deleted === 1;
  }

  /** Each discount's conditions, for evaluating many discounts against one order. */
  async conditionsOf(tenant: Tenant, discountIds: readonly string[]): Promise<Map<string, TriggerCondition[]>> {
    const rows = await this.db.discountTrigger.findMany({
      where: { discount_id: { in: [...discountIds] }, ...tenantScope(tenant) },
      orderBy: { id: 'asc' },
      select: triggerColumns,
    });
    const conditions = new Map<string, TriggerCondition[]>(discountIds.map((id) => [id, []]));
    for (const row of rows) conditions.get(row.discount_id)?.push(toCondition(row));
    return conditions;
  }

  pages(tenant: Tenant, discountId: string): PageSource<CatalogDiscountTrigger> {
    const scope = { discount_id: discountId, ...tenantScope(tenant) };
    return {
      // A trigger deleted since its page was read still marks its place.
      exists: async (id) =>
        (await this.db.discountTrigger.count({ where: { id, ...scope } })) > 0 || (await this.db.deletedDiscountTrigger.count({ where: { id, ...scope } })) > 0,
      fetch: async (take, beforeId) =>
        (
          await this.db.discountTrigger.findMany({
            where: { ...scope, ...idsBefore(beforeId) },
            orderBy: { id: 'desc' },
            take,
            select: triggerColumns,
          })
        ).map(toTrigger),
    };
  }
}
