import type { Tenant } from '@ticketing/auth';
import { newId } from '@ticketing/ids';
import type { PrismaClient } from '../../db';
import { statusAfter, validConnectAccountChanges, type ConnectAccount } from '../../domain/connect-account';
import type { Processors } from '../../processors/payment-processor';
import { ConnectAccountRepository } from '../../repositories/connect-account.repository';
import { enqueueConnectAccountUpdated } from '../../repositories/payout-events';

/** Advisory lock space of connect-account creation, per tenant. */
const CONNECT_ACCOUNT_LOCK_SPACE = 63;

export interface SaveConnectAccountCommand {
  business_name: string;
  country: string;
  default_currency: string;
  bank_account?: { account_holder_name: string; account_number: string };
}

/**
 * Creates the tenant's connect account, or changes the details given (decision 0063), with
 * connect_account.updated. Once nothing is due it awaits verification, which the processor of its
 * mode does: live mode has none configured yet, so live accounts are refused, never simulated.
 */
export class SaveConnectAccountUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly processors: Processors,
  ) {}

  execute(tenant: Tenant, command: SaveConnectAccountCommand): Promise<ConnectAccount> {
    this.processors.of(tenant.mode);
    const changes = validConnectAccountChanges(command);
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CONNECT_ACCOUNT_LOCK_SPACE}::int, hashtext(${`${tenant.accountId}:${tenant.mode}`}))`;
      const accounts = new ConnectAccountRepository(tx);
      const current = await accounts.find(tenant);
      const merged = { business_name: null, country: null, default_currency: null, bank_account_last4: null, ...current, ...changes };
      const status = statusAfter(current?.status ?? null, merged, changes.bank_account_last4 !== undefined);
      const saved = current ? await accounts.update(tenant, { ...changes, status }) : await accounts.create(tenant, newId('ca'), { ...changes, status });
      await enqueueConnectAccountUpdated(tx, tenant, saved);
      return saved;
    });
  }
}
