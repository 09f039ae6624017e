import type { Mode, Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { PaymentsDb } from '../db';

export interface Payment {
  id: string;
  mode: Mode;
  payment_intent_id: string;
  charge_id: string;
  amount: number;
  currency: string;
  fee: number;
  amount_refunded: number;
  payment_method: string;
  created_at: Date;
}

const paymentColumns = {
  id: true,
  mode: true,
  payment_intent_id: true,
  charge_id: true,
  amount: true,
  currency: true,
  fee: true,
  amount_refunded: true,
  payment_method: true,
  created_at: true,
} as const;

const toPayment = (row: { [K in keyof typeof paymentColumns]: unknown }): Payment =>
  ({ ...row, amount: Number(row.amount), fee: Number(row.fee), amount_refunded: Number(row.amount_refunded) }) as Payment;

/** Payments: the money succeeded intents took. */
export class PaymentRepository {
  constructor(private readonly db: PaymentsDb) {}

  async create(tenant: Tenant, payment: Omit<Payment, 'mode' | 'amount_refunded' | 'created_at'>): Promise<Payment> {
    return toPayment(await this.db.payment.create({ data: { ...payment, ...tenantScope(tenant) }, select: paymentColumns }));
  }

  /** The payment, locked until the transaction ends, so that its refunds take turns: by its id, or by its intent's. */
  async lock(tenant: Tenant, by: { id: string } | { payment_intent_id: string }): Promise<Payment | null> {
    const locked =
      'id' in by
        ? await this.db.$queryRaw<Array<{ id: string }>>`SELECT id FROM payments WHERE id = ${by.id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} FOR UPDATE`
        : await this.db.$queryRaw<Array<{ id: string }>>`SELECT id FROM payments WHERE payment_intent_id = ${by.payment_intent_id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} FOR UPDATE`;
    return locked[0] ? this.findById(tenant, locked[0].id) : null;
  }

  /** Counts `amount` more as given back; the database refuses more than the payment. */
  async addRefunded(id: string, amount: number): Promise<void> {
    await this.db.payment.update({ where: { id }, data: { amount_refunded: { increment: amount } } });
  }

  async findById(tenant: Tenant, id: string): Promise<Payment | null> {
    const row = await this.db.payment.findUnique({ where: { id, ...tenantScope(tenant) }, select: paymentColumns });
    return row && toPayment(row);
  }
}
