import { ALL_SCOPES, CHECKOUT_SCOPES, effectiveScopes, isKeyKind, isMode, isScope, type KeyKind, type Mode, type Scope } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { requiredText } from '@ticketing/fields';

/** Spec section 8: active keys per account, both modes together. */
export const MAX_ACTIVE_KEYS_PER_ACCOUNT = 25;
export const KEY_LABEL_MAX_LENGTH = 100;

/** The minting request as the caller sent it (proto3: empty string = not given). */
export interface KeyRequest {
  label: string;
  scopes: readonly string[];
  mode: string;
  kind: string;
}

/** A valid request with its defaults applied. */
export interface KeySpec {
  label: string;
  scopes: Scope[];
  mode: Mode;
  kind: KeyKind;
}

/** The key that asks: its mode, kind and stored scopes, from the gateway-signed token. */
export interface MintingCaller {
  mode: Mode;
  kind: KeyKind;
  scopes: readonly string[];
}

export interface MintingFacts {
  caller: MintingCaller;
  account: { live_mode_activated: boolean };
  request: KeyRequest;
  /** Active keys of the account in both modes, counted while the account row is locked. */
  activeKeys: number;
}

const checkoutScopes: readonly string[] = CHECKOUT_SCOPES;

/**
 * The minting rules, in the order they are reported: input validity, live mode activated,
 * caller's mode, caller's scopes, key limit. Returns the key to mint or throws the first
 * rule broken.
 */
export function decideKeyMinting({ caller, account, request, activeKeys }: MintingFacts): KeySpec {
  const spec = validKeyRequest(request, caller.mode);
  if (spec.mode === 'live' && !account.live_mode_activated) {
    throw new ApiError('mode_unavailable', 'Live mode is not activated on this account yet, so live keys cannot be minted.', { param: 'mode' });
  }
  if (spec.mode === 'live' && caller.mode !== 'live') {
    throw new ApiError('mode_not_allowed', 'A test-mode key cannot mint a live-mode key; use a live-mode key.', { param: 'mode' });
  }
  const missing = missingScopes(spec.scopes, caller);
  if (missing.length > 0) {
    throw new ApiError('scope_not_held', `A key can only be given scopes the calling key holds; missing: ${missing.join(', ')}.`, { param: 'scopes' });
  }
  if (activeKeys >= MAX_ACTIVE_KEYS_PER_ACCOUNT) {
    throw new ApiError(
      'key_limit_reached',
      `This account already has ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys (test and live together); revoke one before minting another.`,
    );
  }
  return spec;
}

/** Input validity alone: 400s naming the parameter at fault; applies the defaults. */
export function validKeyRequest(request: KeyRequest, callerMode: Mode): KeySpec {
  if (request.label === '') throw new ApiError('parameter_missing', 'label is required.', { param: 'label' });
  const label = requiredText(request.label, 'label', KEY_LABEL_MAX_LENGTH);

  const mode = request.mode === '' ? callerMode : request.mode;
  if (!isMode(mode)) throw new ApiError('parameter_invalid', "mode must be 'test' or 'live'.", { param: 'mode' });
  const kind = request.kind === '' ? 'secret' : request.kind;
  if (!isKeyKind(kind)) throw new ApiError('parameter_invalid', "kind must be 'secret' or 'publishable'.", { param: 'kind' });

  if (request.scopes.length === 0) throw new ApiError('parameter_missing', 'scopes must name at least one scope.', { param: 'scopes' });
  request.scopes.forEach((scope, index) => {
    if (!isScope(scope)) {
      throw new ApiError('parameter_invalid', `'${scope}' is not a scope; known scopes: ${ALL_SCOPES.join(', ')}.`, { param: `scopes[${index}]` });
    }
    if (kind === 'publishable' && !checkoutScopes.includes(scope)) {
      throw new ApiError('parameter_invalid', `A publishable key can only hold ${CHECKOUT_SCOPES.join(', ')}; '${scope}' needs a secret key.`, {
        param: `scopes[${index}]`,
      });
    }
  });
  return { label, scopes: canonicalScopes(request.scopes as readonly Scope[]), mode, kind };
}

/** Scopes requested that the caller does not hold (implied scopes count as held). */
export function missingScopes(requested: readonly Scope[], caller: Pick<MintingCaller, 'kind' | 'scopes'>): Scope[] {
  const held = effectiveScopes(caller.kind, caller.scopes);
  return requested.filter((scope) => !held.has(scope));
}

/** Each scope once, in the spec's order, so equal scope sets are stored alike. */
function canonicalScopes(scopes: readonly Scope[]): Scope[] {
  return ALL_SCOPES.filter((scope) => scopes.includes(scope));
}

/**
 * An operator running the admin command: holds every scope and may mint in either mode. The
 * account's own rules (live mode activated, key limit) still apply to what it mints.
 */
export const OPERATOR: MintingCaller = { mode: 'live', kind: 'secret', scopes: ALL_SCOPES };

/**
 * The key an operator hands to a new account (and to an account entering live mode): a secret
 * key with every scope, checkout included so it can mint publishable keys
 * (docs/decisions/0005-root-key-scopes.md).
 */
export function rootKeyRequest(mode: Mode): KeyRequest {
  return { label: mode === 'live' ? 'Live root key' : 'Root key', scopes: ALL_SCOPES, mode, kind: 'secret' };
}
