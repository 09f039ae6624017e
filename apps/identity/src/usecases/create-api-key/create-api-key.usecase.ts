import type { InternalClaims, Tenant } from '@ticketing/auth';
import type { PrismaClient } from '../../db';
import type { MintedApiKey } from '../../domain/api-key';
import type { KeyRequest } from '../../domain/key-minting';
import { MINTING_TRANSACTION_OPTIONS, mintApiKey, retryingPrefixCollision } from './mint-api-key';

export type CallingKey = NonNullable<InternalClaims['key']>;

/** Mints a key for the tenant's account as the calling key; the plaintext is returned once. */
export class CreateApiKeyUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, callingKey: CallingKey, request: KeyRequest): Promise<MintedApiKey> {
    const caller = { mode: tenant.mode, kind: callingKey.kind, scopes: callingKey.scopes };
    return retryingPrefixCollision(() =>
      this.prisma.$transaction((tx) => mintApiKey(tx, tenant.accountId, caller, request), MINTING_TRANSACTION_OPTIONS),
    );
  }
}
