import type { Mode, Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import type { PaymentsDb } from '../db';
import type { ConnectAccount, ConnectAccountChanges, ConnectAccountStatus } from '../domain/connect-account';

const accountColumns = {
  id: true,
  mode: true,
  status: true,
  business_name: true,
  country: true,
  default_currency: true,
  account_holder_name: true,
  bank_account_last4: true,
  created_at: true,
  updated_at: true,
} as const;

const toAccount = (row: { [K in keyof typeof accountColumns]: unknown }): ConnectAccount => ({ ...row, mode: row.mode as Mode, status: row.status as ConnectAccountStatus }) as ConnectAccount;

/** The connect account of each tenant (one per account and mode). */
export class ConnectAccountRepository {
  constructor(private readonly db: PaymentsDb) {}

  async find(tenant: Tenant): Promise<ConnectAccount | null> {
    const row = await this.db.connectAccount.findUnique({ where: { account_id_mode: tenantScope(tenant) }, select: accountColumns });
    return row && toAccount(row);
  }

  /** The tenant's account, locked until the transaction ends: its changes and payouts take turns. */
  async lock(tenant: Tenant): Promise<ConnectAccount | null> {
    await this.db.$executeRaw`SELECT 1 FROM connect_accounts WHERE account_id = ${tenant.accountId} AND mode = ${tenant.mode} FOR UPDATE`;
    return this.find(tenant);
  }

  async create(tenant: Tenant, id: string, fields: ConnectAccountChanges & { status: ConnectAccountStatus }): Promise<ConnectAccount> {
    return toAccount(await this.db.connectAccount.create({ data: { id, ...tenantScope(tenant), ...fields }, select: accountColumns }));
  }

  async update(tenant: Tenant, fields: ConnectAccountChanges & { status: ConnectAccountStatus }): Promise<ConnectAccount> {
    return toAccount(await this.db.connectAccount.update({ where: { account_id_mode: tenantScope(tenant) }, data: { ...fields, updated_at: new Date() }, select: accountColumns }));
  }

  /** Accounts awaiting verification since before `before`, across tenants, oldest first. */
  async awaitingVerification(before: Date, limit: number): Promise<Array<{ tenant: Tenant }>> {
    const rows = await this.db.connectAccount.findMany({ where: { status: 'pending_verification', updated_at: { lt: before } }, orderBy: { updated_at: 'asc' }, take: limit, select: { account_id: true, mode: true } });
    return rows.map((row) => ({ tenant: { accountId: row.account_id, mode: row.mode as Mode } }));
  }
}
