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

/** A whole key, wherever it starts: its kind and mode, then more of its random part than a prefix keeps. */
const WHOLE_API_KEY = new RegExp(`[sp]k_(?:test|live)_[A-Za-z0-9_-]{${PREFIX_RANDOM_CHARS + 1},}`, 'g');

/** Whether `text` holds a whole key (pasted where a key's prefix or an id belongs, say). */
export function containsWholeApiKey(text: string): boolean {
  return text.search(WHOLE_API_KEY) !== -1;
}

/** `text` percent-decoded, or as it is when it is not valid percent-encoding. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `text` with every whole key cut to its prefix and '…', for logs and error messages: a key's
 * secret never goes there. A URL's text is looked at decoded too (`%73k_test_…` is a key); when
 * it holds a key, the decoded text is what is returned, cut.
 */
export function redactApiKeys(text: string): string {
  const decoded = text.includes('%') ? percentDecoded(text) : text;
  if (!containsWholeApiKey(decoded)) return text;
  return decoded.replace(WHOLE_API_KEY, (key) => `${key.slice(0, 8 + PREFIX_RANDOM_CHARS)}…`);
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
