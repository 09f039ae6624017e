import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { KeyCache } from '../../cache/key-cache';
import type { PrismaClient } from '../../db';
import { callingKeyRevoked, keysManagedBy, type ApiKeyRecord } from '../../domain/api-key';
import { AccountRepository } from '../../repositories/account.repository';
import { ApiKeyRepository } from '../../repositories/api-key.repository';

/**
 * Revokes a key the caller manages (its account's keys of its mode; a live key's, of both
 * modes: decision 0047), then (after the commit, so a rollback never
 * leaves a tombstone for a live key) overwrites the gateway's cache entry for it: the very next
 * request with the key is refused. Repeating a revocation rewrites the tombstone, so a retry
 * after a failed cache write completes it. Key changes of an account queue on its row (as
 * minting does), and the calling key must still be active once it is the revocation's turn:
 * of two keys revoking each other at once, one succeeds and the other is refused.
 */
export class RevokeApiKeyUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly keyCache: KeyCache,
  ) {}

  async execute(tenant: Tenant, callingKeyId: string, prefix: string): Promise<ApiKeyRecord> {
    const revoked = await this.prisma.$transaction(async (tx) => {
      await new AccountRepository(tx).lockForUpdate(tenant.accountId);
      const keys = new ApiKeyRepository(tx);
      if (!(await keys.isActive(callingKeyId))) throw callingKeyRevoked();
      const managed = keysManagedBy(tenant);
      const target = await keys.findByPrefix(managed, prefix);
      if (!target) throw ApiError.resourceMissing('API key', prefix);
      if (target.id === callingKeyId) {
        throw new ApiError('cannot_revoke_self', 'A key cannot revoke itself; revoke it with another key that holds keys:manage.');
      }
      if (target.revoked_at !== null) return target;
      const updated = await keys.revoke(managed, target.id);
      if (!updated) throw ApiError.resourceMissing('API key', prefix);
      return updated;
    });
    await this.keyCache.writeRevoked(revoked);
    return revoked;
  }
}
