import { newId } from '@ticketing/ids';
import type { IdentityDb } from '../db';
import type { Account } from '../domain/account';

export const accountColumns = {
  id: true,
  name: true,
  live_mode_activated: true,
  live_mode_activated_at: true,
  created_at: true,
  rate_limit_per_second: true,
} as const;

/**
 * Accounts are the tenants themselves, so they are addressed by id rather than by a tenant;
 * callers pass the account id of the verified token (or an operator's argument).
 */
export class AccountRepository {
  constructor(private readonly db: IdentityDb) {}

  create(fields: { name: string }): Promise<Account> {
    return this.db.account.create({ data: { id: newId('acct'), ...fields }, select: accountColumns });
  }

  findById(id: string): Promise<Account | null> {
    return this.db.account.findUnique({ where: { id }, select: accountColumns });
  }

  /**
   * Locks the account row until the surrounding transaction ends, so that checks made on the
   * account's keys (the active-key limit) and the insert that depends on them cannot interleave
   * with another transaction doing the same. Prisma has no row-lock API, hence the raw SQL.
   */
  async lockForUpdate(id: string): Promise<Account | null> {
    const locked = await this.db.$queryRaw<Array<{ id: string }>>`SELECT id FROM accounts WHERE id = ${id} FOR UPDATE`;
    return locked.length === 0 ? null : this.findById(id);
  }

  /** Turns live mode on; a no-op (keeping the first activation time) when it already is. */
  async activateLiveMode(id: string): Promise<Account | null> {
    await this.db.account.updateMany({ where: { id, live_mode_activated: false }, data: { live_mode_activated: true, live_mode_activated_at: new Date() } });
    return this.findById(id);
  }

  /** Sets (or, with null, clears) the account's own requests-per-second budget. */
  async setRateLimit(id: string, perSecond: number | null): Promise<Account | null> {
    const updated = await this.db.account.updateMany({ where: { id }, data: { rate_limit_per_second: perSecond } });
    return updated.count === 0 ? null : this.findById(id);
  }
}
