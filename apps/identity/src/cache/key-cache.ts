import { KEY_CACHE_TTL_SECONDS, keyCacheEntry } from '@ticketing/auth';
import type { RedisClient } from '@ticketing/redis';
import { toCachedKey, type ApiKeyRecord } from '../domain/api-key';

/**
 * Identity's side of the gateway's key-verification cache (libs/auth key-cache.ts): a revoked
 * key's entry is overwritten unconditionally, so neither an earlier fill nor one racing the
 * revocation (the gateway fills with SET NX) can let the key through again.
 */
export class KeyCache {
  constructor(private readonly redis: RedisClient) {}

  async writeRevoked(key: ApiKeyRecord): Promise<void> {
    const entry = { ...toCachedKey(key), revoked: true };
    await this.redis.set(keyCacheEntry(key.key_hash), JSON.stringify(entry), { expiration: { type: 'EX', value: KEY_CACHE_TTL_SECONDS } });
  }
}
