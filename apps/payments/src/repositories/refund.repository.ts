import type { Mode, Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { PaymentsDb } from '../db';

export interface Refund {
  id: string;
  account_id: string;
  mode: Mode;
  payment_id: string;
  amount: number;
  currency: string;
  status: 'pending' | 'succeeded';
  reason: string | null;
  source_id: string;
  created_at: Date;
}

const refundColumns = { id: true, account_id: true, mode: true, payment_id: true, amount: true, currency: true, status: true, reason: true, source_id: true, created_at: true } as const;

const toRefund = (row: { [K in keyof typeof refundColumns]: unknown }): Refund => ({ ...row, amount: Number(row.amount) }) as Refund;

/** Refunds: money given back from payments, once per source. */
export class RefundRepository {
  constructor(private readonly db: PaymentsDb) {}

  async create(tenant: Tenant, refund: Pick<Refund, 'id' | 'payment_id' | 'amount' | 'currency' | 'reason' | 'source_id'>): Promise<Refund> {
    return toRefund(await this.db.refund.create({ data: { ...refund, ...tenantScope(tenant), status: 'pending' }, select: refundColumns }));
  }

  async findBySource(tenant: Tenant, sourceId: string): Promise<Refund | null> {
    const row = await this.db.refund.findUnique({ where: { source_id: sourceId, ...tenantScope(tenant) }, select: refundColumns });
    return row && toRefund(row);
  }

  async ofPayment(paymentId: string): Promise<Refund[]> {
    return (await this.db.refund.findMany({ where: { payment_id: paymentId }, orderBy: { id: 'desc' }, select: refundColumns })).map(toRefund);
  }

  /** pending → succeeded; false when it was no longer pending (settled by another process first). */
  async succeed(id: string): Promise<boolean> {
    const { count } = await this.db.refund.updateMany({ where: { id, status: 'pending' }, data: { status: 'succeeded', updated_at: new Date() } });
    return count === 1;
  }

  /** Refunds still pending since before `before`, across tenants, oldest first. */
  async pendingSince(before: Date, limit: number): Promise<Refund[]> {
    return (await this.db.refund.findMany({ where: { status: 'pending', created_at: { lt: before } }, orderBy: { created_at: 'asc' }, take: limit, select: refundColumns })).map(toRefund);
  }
}
