import type { PrismaClient } from '../../db';
import { validAccountName, type Account } from '../../domain/account';
import type { MintedApiKey } from '../../domain/api-key';
import { OPERATOR, rootKeyRequest } from '../../domain/key-minting';
import { AccountRepository } from '../../repositories/account.repository';
import { MINTING_TRANSACTION_OPTIONS, mintApiKey, retryingPrefixCollision } from '../create-api-key/mint-api-key';

export interface CreatedAccount extends MintedApiKey {
  account: Account;
}

/** An operator's command: a new account (test mode only) with its test-mode root key. */
export class CreateAccountUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(command: { name: string }): Promise<CreatedAccount> {
    const name = validAccountName(command.name);
    return retryingPrefixCollision(() =>
      this.prisma.$transaction(async (tx) => {
        const account = await new AccountRepository(tx).create({ name });
        return { account, ...(await mintApiKey(tx, account.id, OPERATOR, rootKeyRequest('test'))) };
      }, MINTING_TRANSACTION_OPTIONS),
    );
  }
}
