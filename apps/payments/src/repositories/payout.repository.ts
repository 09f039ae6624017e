import type { Mode, Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { PaymentsDb } from '../db';
import type { Payout, PayoutRequest, PayoutStatus } from '../domain/payout';

const payoutColumns = {
  id: true,
  mode: true,
  amount: true,
  currency: true,
  status: true,
  description: true,
  destination_last4: true,
  failure_code: true,
  failure_message: true,
  created_at: true,
  updated_at: true,
} as const;

const toPayout = (row: { [K in keyof typeof payoutColumns]: unknown }): Payout => ({ ...row, mode: row.mode as Mode, amount: Number(row.amount), status: row.status as PayoutStatus }) as Payout;

/** Payouts, of one tenant except for the sandbox's scan. */
export class PayoutRepository {
  constructor(private readonly db: PaymentsDb) {}

  async create(tenant: Tenant, id: string, request: PayoutRequest, destinationLast4: string): Promise<Payout> {
    return toPayout(await this.db.payout.create({ data: { id, ...tenantScope(tenant), ...request, status: 'pending', destination_last4: destinationLast4 }, select: payoutColumns }));
  }

  /** Moves the payout from `from` to `to`; null when it was no longer `from` (another sweep moved it). */
  async move(id: string, from: PayoutStatus, to: PayoutStatus, failure?: { code: string; message: string }): Promise<Payout | null> {
    const { count } = await this.db.payout.updateMany({ where: { id, status: from }, data: { status: to, failure_code: failure?.code, failure_message: failure?.message, updated_at: new Date() } });
    return count === 1 ? toPayout((await this.db.payout.findUnique({ where: { id }, select: payoutColumns }))!) : null;
  }

  /** Payouts of the test mode in `status` since before `before`, oldest first: the sandbox moves them on. */
  async sandboxed(status: PayoutStatus, before: Date, limit: number): Promise<Array<Payout & { account_id: string }>> {
    const rows = await this.db.payout.findMany({ where: { mode: 'test', status, updated_at: { lt: before } }, orderBy: { updated_at: 'asc' }, take: limit, select: { ...payoutColumns, account_id: true } });
    return rows.map((row) => ({ ...toPayout(row), account_id: row.account_id }));
  }

  pages(tenant: Tenant): PageSource<Payout> {
    return {
      exists: async (id) => (await this.db.payout.count({ where: { id, ...tenantScope(tenant) } })) > 0,
      fetch: async (take, beforeId) => (await this.db.payout.findMany({ where: { ...tenantScope(tenant), ...idsBefore(beforeId) }, orderBy: { id: 'desc' }, take, select: payoutColumns })).map(toPayout),
    };
  }
}
