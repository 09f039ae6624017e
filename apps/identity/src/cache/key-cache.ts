import { KEY_CACHE_TTL_SECONDS, keyCacheEntry, keyGenerationEntry, REVOKED_KEY_ENTRY } from '@ticketing/auth';
import { redisAnswer, type RedisClient } from '@ticketing/redis';
import type { ApiKeyRecord } from '../domain/api-key';

/**
 * Identity's side of the gateway's key-verification cache (libs/auth key-cache.ts): a revoked
 * key's entry is overwritten unconditionally, so neither an earlier fill nor one racing the
 * revocation (the gateway fills only an absent entry) can let the key through again. When an
 * account changes (live mode, rate limit), its keys' entries are dropped and their generations
 * bumped in one transaction, so every gateway asks identity again on each key's next request,
 * and a gateway that read the account before the change cannot fill the entry after it.
 *
 * While Redis is down or silent, these writes fail with 503 after at most 5 s, and the change
 * they follow stands in the database: gateways verify every key with identity meanwhile
 * (decision 0043), so a revoked key is refused at once; the caller's retry writes the entry.
 */
export class KeyCache {
  constructor(private readonly redis: RedisClient) {}

  async writeRevoked(key: ApiKeyRecord): Promise<void> {
    await redisAnswer(this.redis.set(keyCacheEntry(key.key_hash), JSON.stringify(REVOKED_KEY_ENTRY), { expiration: { type: 'EX', value: KEY_CACHE_TTL_SECONDS } }));
  }

  async forgetAccountKeys(keyHashes: readonly string[]): Promise<void> {
    if (keyHashes.length === 0) return;
    const forget = this.redis.multi();
    for (const keyHash of keyHashes) {
      forget.incr(keyGenerationEntry(keyHash)).expire(keyGenerationEntry(keyHash), KEY_CACHE_TTL_SECONDS);
    }
    await redisAnswer(forget.del(keyHashes.map(keyCacheEntry)).exec());
  }
}
