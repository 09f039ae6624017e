import type { KeyKind, Mode } from './scopes';

/**
 * The key-verification cache in Redis, shared by the gateway (reads, fills) and identity
 * (writes a tombstone on revocation, drops entries when an account changes; decision 0007).
 * Identity's tombstone is unconditional and the gateway fills only where no entry is, so a fill
 * racing a revocation can never resurrect a revoked key. Each key also has a generation, which
 * identity bumps as it drops the key's entry; the gateway reads it before asking identity and
 * fills only while it is unchanged, so a fill that read the account before a change cannot
 * land after the change dropped the entry.
 */
export interface CachedKey {
  key_id: string;
  prefix: string;
  account_id: string;
  mode: Mode;
  kind: KeyKind;
  scopes: string[];
  revoked: boolean;
  /** The account's own requests-per-second budget; absent means the gateway's default. */
  rate_limit_per_second?: number;
  /** What GET /v1/account shows of the key's account, answered from this cache. */
  account: CachedAccount;
}

export interface CachedAccount {
  name: string;
  live_mode_activated: boolean;
  created_at: string;
}

/**
 * What identity writes over a revoked key's entry. The gateway refuses any entry that says
 * `revoked: true`, whatever else it holds.
 */
export const REVOKED_KEY_ENTRY = { revoked: true } as const;

export const KEY_CACHE_TTL_SECONDS = 300;

export function keyCacheEntry(keyHash: string): string {
  return `apikey:${keyHash}`;
}

/**
 * The key's generation: a counter identity increments, in the same transaction that drops the
 * key's entry, whenever what the entry says may have changed. It expires KEY_CACHE_TTL_SECONDS
 * after its last change, far longer than any lookup lasts, and then reads as absent again.
 */
export function keyGenerationEntry(keyHash: string): string {
  return `apikey-generation:${keyHash}`;
}
