import type { RequestHandler } from 'express';
import { effectiveScopes, type CachedKey, type Scope } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { requestState } from '../http/request-state';
import type { KeyedAccess } from '../routes/route';

/** Effective scopes by key object: the key verifier hands every request of a key the same one. */
const scopesByKey = new WeakMap<Pick<CachedKey, 'kind' | 'scopes'>, Set<Scope>>();
function scopesOf(key: Pick<CachedKey, 'kind' | 'scopes'>): Set<Scope> {
  let scopes = scopesByKey.get(key);
  if (!scopes) {
    scopes = effectiveScopes(key.kind, key.scopes);
    scopesByKey.set(key, scopes);
  }
  return scopes;
}

/** Why `key` may not call an operation with `access`, or undefined when it may. */
export function accessDenial(access: KeyedAccess, key: Pick<CachedKey, 'kind' | 'scopes'>): ApiError | undefined {
  if (access.kind === 'secret' && key.kind === 'publishable') {
    return new ApiError('publishable_key_not_allowed', 'This endpoint needs a secret key; publishable keys work only on /v1/checkout endpoints.');
  }
  if (access.kind === 'publishable' && key.kind === 'secret') {
    return new ApiError('secret_key_not_allowed', 'Checkout endpoints take a publishable key; never send a secret key from a browser.');
  }
  if (access.scope !== null && !scopesOf(key).has(access.scope)) {
    return new ApiError('forbidden', `Missing required scope: ${access.scope}`);
  }
  return undefined;
}

/** Key kind, then scope: before anything is looked up or validated. */
export function authorize(access: KeyedAccess): RequestHandler {
  return (_req, res, next) => {
    const denial = accessDenial(access, requestState(res).key!);
    if (denial) throw denial;
    next();
  };
}
