import { ApiError } from '@ticketing/errors';
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

/**
 * The key a request came with was revoked while it ran (the gateway checked it just before): a
 * revoked key changes nothing, so two keys revoking each other at once cannot both succeed.
 */
export function callingKeyRevoked(): ApiError {
  return new ApiError('invalid_api_key', 'The API key this request used was revoked while it ran; nothing was changed. Send it with an active key.');
}
