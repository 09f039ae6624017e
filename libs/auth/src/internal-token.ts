import { createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import type { KeyKind, Mode } from './scopes';

/**
 * The gateway's word to a service about who is calling. Services take the tenant only from a
 * verified token, never from request fields. A token without `tenant` is the gateway acting for
 * itself (e.g. resolving a key before the tenant is known).
 */
export interface InternalPrincipal {
  tenant?: { account_id: string; mode: Mode };
  key?: { id: string; prefix: string; kind: KeyKind; scopes: string[] };
}

/** A principal and the request it acts in. The request id travels beside the token, unsigned. */
export interface InternalClaims extends InternalPrincipal {
  request_id: string;
}

const ISSUER = 'ticketing-gateway';
const AUDIENCE = 'ticketing-services';
const ALGORITHM = 'HS256';
const TOKEN_TTL_SECONDS = 60;

/**
 * Handing jsonwebtoken a KeyObject instead of a string skips its attempt to parse the secret as
 * a PEM key on every call (~0.35 ms each, paid twice per gRPC call otherwise).
 */
const secretKeys = new Map<string, KeyObject>();
function keyFor(secret: string): KeyObject {
  let key = secretKeys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    secretKeys.set(secret, key);
  }
  return key;
}

export function signInternalToken(principal: InternalPrincipal, secret: string, ttlSeconds = TOKEN_TTL_SECONDS): string {
  const claims: InternalPrincipal = { tenant: principal.tenant, key: principal.key };
  return jwt.sign(claims, keyFor(secret), { algorithm: ALGORITHM, issuer: ISSUER, audience: AUDIENCE, expiresIn: ttlSeconds });
}

function verifyWithExpiry(token: string, secret: string): { principal: InternalPrincipal; expiresAtMs: number } {
  const payload = jwt.verify(token, keyFor(secret), { algorithms: [ALGORITHM], issuer: ISSUER, audience: AUDIENCE });
  if (typeof payload === 'string' || payload.exp === undefined) throw new Error('internal token has no claims or no expiry');
  return { principal: { tenant: payload.tenant, key: payload.key }, expiresAtMs: payload.exp * 1000 };
}

/** Throws when the token is missing, forged, expired or not meant for services. */
export function verifyInternalToken(token: string, secret: string): InternalPrincipal {
  return verifyWithExpiry(token, secret).principal;
}

/**
 * Signing and verifying cost ~25 and ~30 µs per gRPC call, for a principal (one API key) that
 * is the same on every request it makes. A token is therefore signed once and reused for half
 * its lifetime, and a service remembers the tokens it verified until they expire. The caches
 * are bounded (least recently used first out).
 */
const MAX_CACHED_TOKENS = 10_000;

/** Each secret's own caches (one in production; tests use several), so a cache key need not carry the secret. */
const tokenCaches = new Map<string, { signed: LRUCache<string, string>; verified: LRUCache<string, InternalPrincipal> }>();
function cachesFor(secret: string) {
  let caches = tokenCaches.get(secret);
  if (!caches) {
    caches = { signed: new LRUCache({ max: MAX_CACHED_TOKENS, ttl: (TOKEN_TTL_SECONDS * 1000) / 2 }), verified: new LRUCache({ max: MAX_CACHED_TOKENS }) };
    tokenCaches.set(secret, caches);
  }
  return caches;
}

/** Everything a token says about its principal, as a cache key; built per call, so kept cheaper than JSON. */
function principalKey({ tenant, key }: InternalPrincipal): string {
  const tenantPart = tenant ? `${tenant.account_id} ${tenant.mode}` : '';
  return key ? `${tenantPart}\n${key.id} ${key.prefix} ${key.kind} ${key.scopes.join(' ')}` : tenantPart;
}

/** A token for `principal`, signed now or reused from the last half minute. */
export function internalTokenFor(principal: InternalPrincipal, secret: string): string {
  const { signed } = cachesFor(secret);
  const cacheKey = principalKey(principal);
  let token = signed.get(cacheKey);
  if (token === undefined) {
    token = signInternalToken(principal, secret);
    signed.set(cacheKey, token);
  }
  return token;
}

/** verifyInternalToken, remembered until the token expires. */
export function verifiedInternalToken(token: string, secret: string): InternalPrincipal {
  const { verified } = cachesFor(secret);
  const known = verified.get(token);
  if (known !== undefined) return known;
  const { principal, expiresAtMs } = verifyWithExpiry(token, secret);
  verified.set(token, principal, { ttl: Math.max(1, expiresAtMs - Date.now()) });
  return principal;
}

/**
 * A key for one purpose of a service's own (admission tokens, delivery links), derived from the
 * internal token secret with HKDF: nothing more to configure, and no two purposes share a key.
 */
export function keyDerivedFromInternalSecret(secret: string, purpose: string): KeyObject {
  return createSecretKey(Buffer.from(hkdfSync('sha256', secret, '', purpose, 32)));
}
