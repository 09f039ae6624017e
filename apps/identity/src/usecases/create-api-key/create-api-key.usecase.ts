import type { InternalClaims, Tenant } from '@ticketing/auth';
import type { PrismaClient } from '../../db';
import type { ApiKeyRecord } from '../../domain/api-key';
import type { KeyRequest } from '../../domain/key-minting';
import { MINTING_TRANSACTION_OPTIONS, mintApiKey, retryingPrefixCollision } from './mint-api-key';

export type CallingKey = NonNullable<InternalClaims['key']>;

/**
 * Mints a key for the tenant's account as the calling key. The plaintext is returned once and
 * stored nowhere: the transaction's result, which an Idempotency-Key's record keeps (decision
 * 0025), is the key without it, so a replay answers the key with `secret` null.
 */
export class CreateApiKeyUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, callingKey: CallingKey, request: KeyRequest): Promise<{ key: ApiKeyRecord; secret: string | null }> {
    const caller = { mode: tenant.mode, kind: callingKey.kind, scopes: callingKey.scopes };
    let secret: string | null = null;
    const key = await retryingPrefixCollision(() =>
      this.prisma.$transaction(async (tx) => {
        const minted = await mintApiKey(tx, tenant.accountId, caller, request, callingKey.id);
        secret = minted.secret;
        return minted.key;
      }, MINTING_TRANSACTION_OPTIONS),
    );
    return { key, secret };
  }
}
