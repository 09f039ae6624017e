import type { Mode, Tenant } from '@ticketing/auth';
import type { PrismaClient } from '../../db';
import { payoutTransaction } from '../../domain/ledger';
import type { Payout } from '../../domain/payout';
import { ConnectAccountRepository } from '../../repositories/connect-account.repository';
import { LedgerRepository } from '../../repositories/ledger.repository';
import { enqueueConnectAccountUpdated, enqueuePayoutEvent } from '../../repositories/payout-events';
import { PayoutRepository } from '../../repositories/payout.repository';
import { sandboxPayoutFailure } from '../../sandbox/sandbox-bank';

const BATCH = 100;

/**
 * What the sandbox's processor and banks do over time in test mode (decision 0063), one step per
 * `stepMs`: a connect account awaiting verification is enabled; a pending payout goes in transit,
 * then is paid, or fails for the failing test bank accounts (its money back in the balance). Each
 * step is one transaction with its ledger entries and event, applied once whichever replica
 * sweeps. Answers how many steps were taken.
 */
export class AdvanceSandboxPayoutsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly stepMs: number,
  ) {}

  async execute(): Promise<number> {
    const before = new Date(Date.now() - this.stepMs);
    let steps = 0;
    for (const { tenant } of await new ConnectAccountRepository(this.prisma).awaitingVerification(before, BATCH)) {
      if (tenant.mode === 'test' && (await this.verify(tenant))) steps += 1;
    }
    // In transit first: a payout moved on by this pass waits for the next one.
    const payouts = new PayoutRepository(this.prisma);
    for (const payout of await payouts.sandboxed('in_transit', before, BATCH)) if (await this.move(payout, 'in_transit')) steps += 1;
    for (const payout of await payouts.sandboxed('pending', before, BATCH)) if (await this.move(payout, 'pending')) steps += 1;
    return steps;
  }

  private verify(tenant: Tenant): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const accounts = new ConnectAccountRepository(tx);
      const account = await accounts.lock(tenant);
      if (account?.status !== 'pending_verification') return false;
      await enqueueConnectAccountUpdated(tx, tenant, await accounts.update(tenant, { status: 'enabled' }));
      return true;
    });
  }

  private move(payout: Payout & { account_id: string }, from: 'pending' | 'in_transit'): Promise<boolean> {
    const tenant: Tenant = { accountId: payout.account_id, mode: payout.mode as Mode };
    return this.prisma.$transaction(async (tx) => {
      const payouts = new PayoutRepository(tx);
      if (from === 'pending') {
        const moved = await payouts.move(payout.id, 'pending', 'in_transit');
        if (moved) await enqueuePayoutEvent(tx, tenant, 'payout.updated', moved);
        return moved !== null;
      }
      const failure = sandboxPayoutFailure(payout.destination_last4);
      const moved = await payouts.move(payout.id, 'in_transit', failure ? 'failed' : 'paid', failure ?? undefined);
      if (!moved) return false;
      await new LedgerRepository(tx).record(tenant, [payoutTransaction(moved, failure ? 'failed' : 'paid', new Date())]);
      await enqueuePayoutEvent(tx, tenant, failure ? 'payout.failed' : 'payout.paid', moved);
      return true;
    });
  }
}
