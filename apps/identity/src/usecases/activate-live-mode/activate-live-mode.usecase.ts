import { ApiError } from '@ticketing/errors';
import type { KeyCache } from '../../cache/key-cache';
import type { PrismaClient } from '../../db';
import { OPERATOR, rootKeyRequest } from '../../domain/key-minting';
import { AccountRepository } from '../../repositories/account.repository';
import { ApiKeyRepository } from '../../repositories/api-key.repository';
import type { CreatedAccount } from '../create-account/create-account.usecase';
import { MINTING_TRANSACTION_OPTIONS, mintApiKey, retryingPrefixCollision } from '../create-api-key/mint-api-key';

/**
 * An operator's command: turns live mode on (idempotent: the first activation time is kept)
 * and mints a live-mode root key, subject to the account's key limit like any other key. After
 * the commit, the gateways forget the account's cached keys, so GET /v1/account shows live mode
 * on the very next request.
 */
export class ActivateLiveModeUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly keyCache: KeyCache,
  ) {}

  async execute(command: { accountId: string }): Promise<CreatedAccount> {
    const activated = await retryingPrefixCollision(() =>
      this.prisma.$transaction(async (tx) => {
        const accounts = new AccountRepository(tx);
        if (!(await accounts.lockForUpdate(command.accountId))) throw ApiError.resourceMissing('account', command.accountId);
        const account = await accounts.activateLiveMode(command.accountId);
        if (!account) throw ApiError.resourceMissing('account', command.accountId);
        return { account, ...(await mintApiKey(tx, account.id, OPERATOR, rootKeyRequest('live'))) };
      }, MINTING_TRANSACTION_OPTIONS),
    );
    await this.keyCache.forgetAccountKeys(await new ApiKeyRepository(this.prisma).activeKeyHashes(command.accountId));
    return activated;
  }
}
