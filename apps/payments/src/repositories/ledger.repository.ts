import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import type { PaymentsDb } from '../db';
import type { LedgerTransactionDraft } from '../domain/ledger';

/** The ledger: transactions are only ever added (the database refuses changes to entries). */
export class LedgerRepository {
  constructor(private readonly db: PaymentsDb) {}

  /**
   * What the platform owes the tenant (merchant_balance, credit-normal) per currency: available
   * at `at`, and pending (available later, after settlement).
   */
  async balances(tenant: Tenant, at: Date): Promise<Array<{ currency: string; available: number; pending: number }>> {
    const rows = await this.db.$queryRaw<Array<{ currency: string; available: bigint; pending: bigint }>>`
      SELECT currency,
             -COALESCE(SUM(amount) FILTER (WHERE available_at <= ${at}), 0) AS available,
             -COALESCE(SUM(amount) FILTER (WHERE available_at > ${at}), 0) AS pending
        FROM ledger_entries
       WHERE account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND ledger_account = 'merchant_balance'
       GROUP BY currency ORDER BY currency`;
    return rows.map((row) => ({ currency: row.currency, available: Number(row.available), pending: Number(row.pending) }));
  }

  /** Records the transactions in the caller's database transaction; each must balance by commit. */
  async record(tenant: Tenant, transactions: readonly LedgerTransactionDraft[]): Promise<void> {
    const scope = tenantScope(tenant);
    const withIds = transactions.map((transaction) => ({ id: newId('txn'), transaction }));
    await this.db.ledgerTransaction.createMany({ data: withIds.map(({ id, transaction }) => ({ id, ...scope, kind: transaction.kind, source_id: transaction.source_id })) });
    await this.db.ledgerEntry.createMany({
      data: withIds.flatMap(({ id, transaction }) =>
        transaction.entries.map((entry) => ({ transaction_id: id, ...scope, currency: transaction.currency, ledger_account: entry.ledger_account, amount: entry.amount, available_at: entry.available_at })),
      ),
    });
  }
}
