import { createHash, randomBytes } from 'node:crypto';
import type { KeyKind, Mode } from './scopes';

const KIND_PREFIX: Record<KeyKind, string> = { secret: 'sk', publishable: 'pk' };

/** Characters of the random part kept in the public prefix that names a key (e.g. in DELETE). */
const PREFIX_RANDOM_CHARS = 12;

export interface GeneratedApiKey {
  /** The plaintext, shown to the caller once. */
  secret: string;
  /** `sk_test_` plus the first characters of the random part: unique, safe to show and log. */
  prefix: string;
  hash: string;
}

/** A new key: `sk_test_` / `sk_live_` / `pk_test_` / `pk_live_` followed by 192 random bits. */
export function generateApiKey(kind: KeyKind, mode: Mode): GeneratedApiKey {
  const random = randomBytes(24).toString('base64url');
  const secret = `${KIND_PREFIX[kind]}_${mode}_${random}`;
  return { secret, prefix: secret.slice(0, 8 + PREFIX_RANDOM_CHARS), hash: hashApiKey(secret) };
}

/** Keys are stored and looked up only by this hash; the plaintext is never kept. */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

const KEY_SHAPE = /^(sk|pk)_(test|live)_[A-Za-z0-9_-]{20,}$/;

/** Cheap shape check before any lookup, so garbage never reaches the cache or identity. */
export function looksLikeApiKey(value: string): boolean {
  return KEY_SHAPE.test(value);
}
