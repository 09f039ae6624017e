import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import type { PrismaClient } from '../../db';
import { payoutTransaction } from '../../domain/ledger';
import { assertAvailable, validPayoutRequest, type Payout } from '../../domain/payout';
import type { Processors } from '../../processors/payment-processor';
import { ConnectAccountRepository } from '../../repositories/connect-account.repository';
import { LedgerRepository } from '../../repositories/ledger.repository';
import { enqueuePayoutEvent } from '../../repositories/payout-events';
import { PayoutRepository } from '../../repositories/payout.repository';

/**
 * A payout of the available balance (decision 0063) to the enabled connect account's bank
 * account: its money leaves the balance at once (ledger) and payout.created is enqueued, in one
 * transaction, under the connect account's lock, so concurrent payouts never take more than is
 * available.
 */
export class CreatePayoutUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly processors: Processors,
  ) {}

  execute(tenant: Tenant, command: { amount: number; currency: string; description: string }): Promise<Payout> {
    this.processors.of(tenant.mode);
    const request = validPayoutRequest(command);
    return this.prisma.$transaction(async (tx) => {
      const account = await new ConnectAccountRepository(tx).lock(tenant);
      if (account?.status !== 'enabled') {
        throw new ApiError(
          'payouts_not_enabled',
          account
            ? `Payouts wait for the connect account to be enabled; it is ${account.status}. GET /v1/connect/account shows what it still needs.`
            : 'Payouts need a connect account: create it with POST /v1/connect/account, giving its business and bank account.',
        );
      }
      const ledger = new LedgerRepository(tx);
      const now = new Date();
      const balance = (await ledger.balances(tenant, now)).find((sum) => sum.currency === request.currency);
      assertAvailable(request, balance?.available ?? 0);
      const payout = await new PayoutRepository(tx).create(tenant, newId('po'), request, account.bank_account_last4!);
      await ledger.record(tenant, [payoutTransaction(payout, 'created', now)]);
      await enqueuePayoutEvent(tx, tenant, 'payout.created', payout);
      return payout;
    });
  }
}
