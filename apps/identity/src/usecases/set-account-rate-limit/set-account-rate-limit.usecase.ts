import { ApiError } from '@ticketing/errors';
import type { KeyCache } from '../../cache/key-cache';
import type { PrismaClient } from '../../db';
import { validRateLimit, type Account } from '../../domain/account';
import { AccountRepository } from '../../repositories/account.repository';
import { ApiKeyRepository } from '../../repositories/api-key.repository';

/**
 * An operator's command: gives an account its own requests-per-second budget (null: back to the
 * gateway's default). The gateways forget the account's cached keys, so it applies from each
 * key's next request (libs/auth key-cache.ts).
 */
export class SetAccountRateLimitUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly keyCache: KeyCache,
  ) {}

  async execute(command: { accountId: string; perSecond: number | null }): Promise<Account> {
    const perSecond = validRateLimit(command.perSecond);
    const account = await new AccountRepository(this.prisma).setRateLimit(command.accountId, perSecond);
    if (!account) throw ApiError.resourceMissing('account', command.accountId);
    await this.keyCache.forgetAccountKeys(await new ApiKeyRepository(this.prisma).activeKeyHashes(account.id));
    return account;
  }
}
