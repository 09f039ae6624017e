import type { CachedKey, KeyKind, Mode } from '@ticketing/auth';
import type { Account } from './account';

/**
 * A key as identity stores it. `key_hash` is the SHA-256 of the plaintext (the gateway's cache
 * is keyed by it); the plaintext itself exists only in the response that mints the key.
 */
export interface ApiKeyRecord {
  id: string;
  account_id: string;
  mode: Mode;
  kind: KeyKind;
  prefix: string;
  key_hash: string;
  label: string;
  scopes: string[];
  created_at: Date;
  revoked_at: Date | null;
}

/** A freshly minted key with its plaintext, which only the minting response ever carries. */
export interface MintedApiKey {
  key: ApiKeyRecord;
  secret: string;
}

/** What the gateway authorizes a request with (VerifyApiKey answers it), and caches under the key's hash. */
export function toCachedKey(key: ApiKeyRecord): CachedKey {
  return {
    key_id: key.id,
    prefix: key.prefix,
    account_id: key.account_id,
    mode: key.mode,
    kind: key.kind,
    scopes: key.scopes,
    revoked: key.revoked_at !== null,
  };
}

/** What VerifyApiKey answers: the key as the gateway caches it, with what it needs of the key's account. */
export function toPrincipal(key: ApiKeyRecord, account: Account): CachedKey {
  return { ...toCachedKey(key), rate_limit_per_second: account.rate_limit_per_second ?? undefined };
}
