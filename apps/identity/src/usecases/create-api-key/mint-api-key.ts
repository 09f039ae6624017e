import { generateApiKey } from '@ticketing/auth';
import { isUniqueViolation } from '@ticketing/db';
import { ApiError } from '@ticketing/errors';
import type { IdentityDb } from '../../db';
import { callingKeyRevoked, type MintedApiKey } from '../../domain/api-key';
import { decideKeyMinting, type KeyRequest, type MintingCaller } from '../../domain/key-minting';
import { AccountRepository } from '../../repositories/account.repository';
import { ApiKeyRepository } from '../../repositories/api-key.repository';

/** Minting transactions queue on the account's row lock; give them room under a burst. */
export const MINTING_TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 10_000 };

/**
 * Mints a key for the account inside the open transaction. The account row stays locked until
 * the transaction ends, so the active-key count and the insert that relies on it are one step
 * for every concurrent minting: the limit holds under any concurrency. `callingKeyId`: the key
 * the request came with (none for the operator's command), which must still be active then: a
 * key revoked meanwhile mints nothing.
 */
export async function mintApiKey(tx: IdentityDb, accountId: string, caller: MintingCaller, request: KeyRequest, callingKeyId?: string): Promise<MintedApiKey> {
  const account = await new AccountRepository(tx).lockForUpdate(accountId);
  if (!account) throw ApiError.resourceMissing('account', accountId);
  const keys = new ApiKeyRepository(tx);
  if (callingKeyId !== undefined && !(await keys.isActive(callingKeyId))) throw callingKeyRevoked();
  const spec = decideKeyMinting({ caller, account, request, activeKeys: await keys.countActiveInAccount(accountId) });
  const generated = generateApiKey(spec.kind, spec.mode);
  const key = await keys.create(
    { accountId, mode: spec.mode },
    { kind: spec.kind, prefix: generated.prefix, key_hash: generated.hash, label: spec.label, scopes: spec.scopes },
  );
  return { key, secret: generated.secret };
}

const MINTING_ATTEMPTS = 3;

/**
 * Runs a minting transaction again if a freshly generated prefix collided with an existing one
 * (72 random bits, so practically never); the failed transaction has rolled back entirely.
 */
export async function retryingPrefixCollision<T>(mint: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await mint();
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= MINTING_ATTEMPTS) throw error;
    }
  }
}
