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

/** The keys a key lists and revokes: those of its account in the modes it manages (decision 0047). */
export interface ManagedKeys {
  accountId: string;
  modes: readonly Mode[];
}

/**
 * A live key manages its account's keys of both modes, since it mints keys of both (the spec
 * forbids only a test key minting a live one); a test key manages test keys alone, so nothing
 * done in the sandbox touches a live key.
 */
export function keysManagedBy(caller: { accountId: string; mode: Mode }): ManagedKeys {
  return { accountId: caller.accountId, modes: caller.mode === 'live' ? ['live', 'test'] : ['test'] };
}

/**
 * The key a request came with was revoked while it ran (the gateway checked it just before): a
 * revoked key changes nothing, so two keys revoking each other at once cannot both succeed.
 */
export function callingKeyRevoked(): ApiError {
  return new ApiError('invalid_api_key', 'The API key this request used was revoked while it ran; nothing was changed. Send it with an active key.');
}
