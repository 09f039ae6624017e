import type { Mode, Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { PaymentsDb } from '../db';
import type { Prisma } from '../generated/prisma/client';
import type { Order, OrderInventory } from '../domain/order';
import type { NewOrderIntent, NewPaymentIntent, NextAction, PaymentError, PaymentIntent, PaymentIntentStatus } from '../domain/payment-intent';

const intentColumns = {
  id: true,
  mode: true,
  amount: true,
  currency: true,
  description: true,
  metadata: true,
  status: true,
  payment_method: true,
  last_payment_error: true,
  next_action: true,
  payment_id: true,
  canceled_at: true,
  cancellation_reason: true,
  order_details: true,
  expires_at: true,
  inventory: true,
  claimed_by: true,
  created_at: true,
  updated_at: true,
} as const;

type IntentRow = Prisma.PaymentIntentGetPayload<{ select: typeof intentColumns }>;

/** The columns Prisma types loosely (strings, JSON, BigInt) as the domain knows them. */
const toIntent = ({ order_details, ...row }: IntentRow): PaymentIntent => ({
  ...row,
  order: order_details as Order | null,
  inventory: row.inventory as OrderInventory | null,
  mode: row.mode as Mode,
  amount: Number(row.amount),
  metadata: row.metadata as Record<string, string>,
  status: row.status as PaymentIntentStatus,
  last_payment_error: row.last_payment_error as PaymentError | null,
  next_action: row.next_action as NextAction | null,
});

/** What a change of state sets; the fields left out keep their values. */
export interface IntentChange {
  status: PaymentIntentStatus;
  payment_method?: string | null;
  last_payment_error?: PaymentError | null;
  next_action?: NextAction | null;
  payment_id?: string;
  inventory?: OrderInventory;
  canceled_at?: Date;
  cancellation_reason?: string;
}

const jsonOrNull = (value: object | null | undefined) => (value === null ? ('DbNull' as const) : value);

/** Payment intents, always of one tenant. */
export class PaymentIntentRepository {
  constructor(private readonly db: PaymentsDb) {}

  async create(tenant: Tenant, id: string, intent: NewPaymentIntent | NewOrderIntent): Promise<PaymentIntent> {
    const { order, ...fields } = 'order' in intent ? intent : { ...intent, order: undefined };
    const orderFields = order ? { order_details: order as object, inventory: 'held' } : {};
    return toIntent(await this.db.paymentIntent.create({ data: { id, ...tenantScope(tenant), ...fields, ...orderFields }, select: intentColumns }));
  }

  async findById(tenant: Tenant, id: string): Promise<PaymentIntent | null> {
    const row = await this.db.paymentIntent.findUnique({ where: { id, ...tenantScope(tenant) }, select: intentColumns });
    return row && toIntent(row);
  }

  /** The intent, locked until the transaction ends: its confirmations and settlements take turns. */
  async lockById(tenant: Tenant, id: string): Promise<PaymentIntent | null> {
    const locked = await this.db.$queryRaw<unknown[]>`SELECT 1 FROM payment_intents WHERE id = ${id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} FOR UPDATE`;
    return locked.length === 0 ? null : this.findById(tenant, id);
  }

  async claim(tenant: Tenant, id: string, claimedBy: string): Promise<void> {
    await this.db.paymentIntent.updateMany({ where: { id, ...tenantScope(tenant), claimed_by: null }, data: { claimed_by: claimedBy } });
  }

  /** Gives up `claimedBy`'s claim, if it holds it. */
  async releaseClaim(tenant: Tenant, id: string, claimedBy: string): Promise<void> {
    await this.db.paymentIntent.updateMany({ where: { id, ...tenantScope(tenant), claimed_by: claimedBy }, data: { claimed_by: null } });
  }

  /** Order intents still holding their units past their expiry, across tenants, oldest first, whose charge is not in flight. */
  async expiredHolding(now: Date, limit: number): Promise<Array<{ id: string; tenant: Tenant }>> {
    const rows = await this.db.paymentIntent.findMany({
      where: { inventory: 'held', expires_at: { lt: now }, status: { in: ['requires_payment_method', 'requires_confirmation', 'requires_action'] } },
      orderBy: { expires_at: 'asc' },
      take: limit,
      select: { id: true, account_id: true, mode: true },
    });
    return rows.map((row) => ({ id: row.id, tenant: { accountId: row.account_id, mode: row.mode as Mode } }));
  }

  async change(tenant: Tenant, id: string, change: IntentChange): Promise<PaymentIntent> {
    const { last_payment_error, next_action, ...rest } = change;
    const row = await this.db.paymentIntent.update({
      where: { id, ...tenantScope(tenant) },
      data: {
        ...rest,
        ...(last_payment_error !== undefined && { last_payment_error: jsonOrNull(last_payment_error) }),
        ...(next_action !== undefined && { next_action: jsonOrNull(next_action) }),
        updated_at: new Date(),
      },
      select: intentColumns,
    });
    return toIntent(row);
  }
}
