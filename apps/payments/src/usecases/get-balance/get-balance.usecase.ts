import type { Tenant } from '@ticketing/auth';
import type { PrismaClient } from '../../db';
import { LedgerRepository } from '../../repositories/ledger.repository';

export interface Balance {
  available: Array<{ amount: number; currency: string }>;
  pending: Array<{ amount: number; currency: string }>;
}

/** The balance, summed from the ledger's merchant_balance entries (decision 0063): available now, and pending settlement. */
export class GetBalanceUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant): Promise<Balance> {
    const sums = await new LedgerRepository(this.prisma).balances(tenant, new Date());
    return {
      available: sums.map(({ currency, available }) => ({ amount: available, currency })),
      pending: sums.map(({ currency, pending }) => ({ amount: pending, currency })),
    };
  }
}
