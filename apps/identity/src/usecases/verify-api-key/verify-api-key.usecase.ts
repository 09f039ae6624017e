import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import type { Account } from '../../domain/account';
import type { ApiKeyRecord } from '../../domain/api-key';
import { ApiKeyRepository } from '../../repositories/api-key.repository';

/** Resolves a presented key by its hash, revoked or not: the gateway decides what to refuse. */
export class VerifyApiKeyUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(keyHash: string): Promise<{ key: ApiKeyRecord; account: Account }> {
    const found = await new ApiKeyRepository(this.prisma).findByHash(keyHash);
    // The hash is not echoed: it is as good as the key for looking it up in the cache.
    if (!found) throw new ApiError('resource_missing', 'No API key has this hash.');
    return found;
  }
}
