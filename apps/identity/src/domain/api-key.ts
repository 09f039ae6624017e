import type { KeyKind, Mode } from '@ticketing/auth';

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
