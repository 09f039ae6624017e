import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { hashApiKey, KEY_CACHE_TTL_SECONDS, KEY_KINDS, keyCacheEntry, keyGenerationEntry, looksLikeApiKey, MODES, type CachedKey } from '@ticketing/auth';
import type { identityV1 } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { callUnary, type CallerOptions } from '@ticketing/grpc';
import { redisAnswer, type CachingRedisClient } from '@ticketing/redis';

const cachedKey = z.object({
  key_id: z.string(),
  prefix: z.string(),
  account_id: z.string(),
  mode: z.enum(MODES),
  kind: z.enum(KEY_KINDS),
  scopes: z.array(z.string()),
  revoked: z.boolean(),
  rate_limit_per_second: z.number().int().positive().optional(),
  account: z.object({ name: z.string(), live_mode_activated: z.boolean(), created_at: z.string() }),
}) satisfies z.ZodType<CachedKey>;

const tombstone = z.object({ revoked: z.literal(true) });

function invalidKey(): ApiError {
  return new ApiError('invalid_api_key', 'Invalid API key provided.');
}

/**
 * A key that was real and is revoked: still `invalid_api_key` to the caller, but no guess, so it
 * does not count against its address's failed authentications (decision 0022). A backend still
 * rolling out a rotated key would otherwise spend that budget and lock its new key out.
 */
export class RevokedApiKeyError extends ApiError {
  constructor() {
    super('invalid_api_key', 'This API key has been revoked.');
  }
}

function revokedKey(): ApiError {
  return new RevokedApiKeyError();
}

/** A revocation tombstone is honoured whatever else identity wrote into it. */
function fromCache(text: string): CachedKey {
  const value: unknown = JSON.parse(text);
  if (tombstone.safeParse(value).success) throw revokedKey();
  return cachedKey.parse(value);
}

/**
 * Cache entries already parsed, by their text: a key's every request reads the same entry, so
 * it is parsed and checked once, and its requests share one (never mutated) CachedKey.
 */
const parsedEntries = new LRUCache<string, CachedKey>({ max: 10_000 });
function parsedEntry(text: string): CachedKey {
  let key = parsedEntries.get(text);
  if (key === undefined) {
    key = fromCache(text);
    parsedEntries.set(text, key);
  }
  return key;
}

/**
 * Fills a key's entry only if none is there (identity's revocation tombstone, written
 * unconditionally, always wins) and the key's generation is still the one read before identity
 * was asked (an account change since then dropped the entry, and what identity answered may
 * predate it). Answers 1 when it filled.
 */
const FILL_SCRIPT = `
if (redis.call('GET', KEYS[2]) or '') ~= ARGV[1] then return 0 end
if redis.call('SET', KEYS[1], ARGV[2], 'NX', 'EX', ARGV[3]) then return 1 end
return 0`;

/** The key, unless it was revoked. */
function usable(key: CachedKey): CachedKey {
  if (key.revoked) throw revokedKey();
  return key;
}

/**
 * Resolves a presented key to the key record it names: the cache entry in Redis first, identity
 * on a miss. Keys travel only as their SHA-256 hash. A fill never replaces an entry and never
 * lands after an account change that began after its lookup (`FILL_SCRIPT`), so neither a
 * revoked key nor an account's old facts come back. Entries are read through a
 * client-side-caching Redis client, so a key seen before costs no round trip at all, and a
 * revocation still reaches this process before identity's write is acknowledged (decision 0007).
 * While Redis is down (the client reconnecting, its local cache dropped, as no invalidation can
 * reach it), identity, which owns the keys, answers every request: slower, never stale (0043).
 */
export class KeyVerifier {
  constructor(
    private readonly redis: CachingRedisClient,
    private readonly identity: identityV1.IdentityServiceClient,
    private readonly caller: CallerOptions,
  ) {}

  /** `beforeLookup` runs only when the key must be looked up in identity, and may refuse it. */
  async verify(presented: string, requestId: string, beforeLookup: () => Promise<void>): Promise<CachedKey> {
    if (!looksLikeApiKey(presented)) throw invalidKey();
    const keyHash = hashApiKey(presented);
    if (!this.redis.isReady) {
      await beforeLookup();
      return usable(await this.lookUp(keyHash, requestId));
    }
    const entry = keyCacheEntry(keyHash);
    const cached = await redisAnswer(this.redis.get(entry));
    if (cached === null) await beforeLookup();
    return usable(cached === null ? await this.resolveAndCache(entry, keyHash, requestId) : parsedEntry(cached));
  }

  private async resolveAndCache(entry: string, keyHash: string, requestId: string): Promise<CachedKey> {
    const generation = keyGenerationEntry(keyHash);
    const generationBefore = (await redisAnswer(this.redis.get(generation))) ?? '';
    const key = await this.lookUp(keyHash, requestId);
    const fill = this.redis.eval(FILL_SCRIPT, { keys: [entry, generation], arguments: [generationBefore, JSON.stringify(key), String(KEY_CACHE_TTL_SECONDS)] });
    if ((await redisAnswer(fill)) === 1) return key;
    // Someone wrote the entry since our read, possibly identity revoking the key: theirs is newer.
    // Or the account changed during the lookup: this request, concurrent with the change, is answered as it was read.
    const winner = await redisAnswer(this.redis.get(entry));
    return winner === null ? key : fromCache(winner);
  }

  private async lookUp(keyHash: string, requestId: string): Promise<CachedKey> {
    try {
      const principal = await callUnary(this.identity.verifyApiKey.bind(this.identity), { key_hash: keyHash }, { request_id: requestId }, this.caller);
      return cachedKey.parse(principal);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'resource_missing') throw invalidKey();
      throw error;
    }
  }
}
