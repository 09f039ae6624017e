import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { validRateLimit, type Account } from '../../domain/account';
import { AccountRepository } from '../../repositories/account.repository';

/**
 * An operator's command: gives an account its own requests-per-second budget (null: back to the
 * gateway's default). The gateway learns it with each key's next verification, so it applies
 * once the key's cache entry expires (libs/auth key-cache.ts).
 */
export class SetAccountRateLimitUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(command: { accountId: string; perSecond: number | null }): Promise<Account> {
    const perSecond = validRateLimit(command.perSecond);
    const account = await new AccountRepository(this.prisma).setRateLimit(command.accountId, perSecond);
    if (!account) throw ApiError.resourceMissing('account', command.accountId);
    return account;
  }
}
