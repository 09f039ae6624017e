import { ALL_SCOPES, SECRET_SCOPES } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { decideKeyMinting, MAX_ACTIVE_KEYS_PER_ACCOUNT, missingScopes, OPERATOR, rootKeyRequest, validKeyRequest, type MintingFacts } from './key-minting';

const testRoot = { mode: 'test' as const, kind: 'secret' as const, scopes: ALL_SCOPES };
const liveRoot = { mode: 'live' as const, kind: 'secret' as const, scopes: ALL_SCOPES };
const request = { label: 'door scanners', scopes: ['scanning:write'], mode: '', kind: '' };

function facts(overrides: Partial<MintingFacts> = {}): MintingFacts {
  return { caller: testRoot, account: { live_mode_activated: true }, request, activeKeys: 1, ...overrides };
}

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('key minting rules', () => {
  it("defaults to the caller's mode and a secret key, trims the label, stores scopes once in canonical order", () => {
    expect(decideKeyMinting(facts())).toEqual({ label: 'door scanners', scopes: ['scanning:write'], mode: 'test', kind: 'secret' });
    expect(decideKeyMinting(facts({ caller: liveRoot })).mode).toBe('live');
    expect(decideKeyMinting(facts({ request: { ...request, label: '  x ', scopes: ['events:write', 'events:read', 'events:write'] } }))).toMatchObject({
      label: 'x',
      scopes: ['events:read', 'events:write'],
    });
  });

  it('checks input validity first, naming the parameter', () => {
    const cases: Array<[Partial<typeof request>, string, string]> = [
      [{ label: '' }, 'parameter_missing', 'label'],
      [{ label: '   ' }, 'parameter_invalid', 'label'],
      [{ label: 'x'.repeat(101) }, 'parameter_invalid', 'label'],
      [{ scopes: [] }, 'parameter_missing', 'scopes'],
      [{ scopes: ['events:read', 'events:delete'] }, 'parameter_invalid', 'scopes[1]'],
      [{ mode: 'prod' }, 'parameter_invalid', 'mode'],
      [{ kind: 'restricted' }, 'parameter_invalid', 'kind'],
      [{ kind: 'publishable', scopes: ['checkout:read', 'events:read'] }, 'parameter_invalid', 'scopes[1]'],
    ];
    for (const [change, code, param] of cases) {
      // Even a caller that would break every later rule gets the input error.
      const error = errorOf(() =>
        decideKeyMinting(facts({ caller: { ...testRoot, scopes: [] }, account: { live_mode_activated: false }, request: { ...request, mode: 'live', ...change }, activeKeys: 99 })),
      );
      expect({ code: error.code, param: error.param, status: error.status }).toEqual({ code, param, status: 400 });
    }
    expect(validKeyRequest({ ...request, label: 'x'.repeat(100) }, 'test').label).toHaveLength(100);
  });

  it('refuses live keys while live mode is not activated, whoever asks, before the caller-mode rule', () => {
    for (const caller of [testRoot, liveRoot]) {
      const error = errorOf(() => decideKeyMinting(facts({ caller, account: { live_mode_activated: false }, request: { ...request, mode: 'live' } })));
      expect({ code: error.code, status: error.status }).toEqual({ code: 'mode_unavailable', status: 403 });
    }
    expect(decideKeyMinting(facts({ account: { live_mode_activated: false } })).mode).toBe('test');
  });

  it('never lets a test key mint a live key; a live key may mint either', () => {
    const error = errorOf(() => decideKeyMinting(facts({ request: { ...request, mode: 'live' } })));
    expect({ code: error.code, status: error.status }).toEqual({ code: 'mode_not_allowed', status: 403 });
    expect(decideKeyMinting(facts({ caller: liveRoot, request: { ...request, mode: 'live' } })).mode).toBe('live');
    expect(decideKeyMinting(facts({ caller: liveRoot, request: { ...request, mode: 'test' } })).mode).toBe('test');
  });

  it('mints only a subset of the caller’s scopes, naming what is missing, before the key limit', () => {
    const caller = { ...testRoot, scopes: ['events:read', 'keys:manage'] };
    const error = errorOf(() => decideKeyMinting(facts({ caller, request: { ...request, scopes: ['events:read', 'events:write', 'tickets:read'] }, activeKeys: 30 })));
    expect({ code: error.code, status: error.status }).toEqual({ code: 'scope_not_held', status: 403 });
    expect(error.message).toContain('events:write, tickets:read');
    expect(decideKeyMinting(facts({ caller, request: { ...request, scopes: ['events:read'] } })).scopes).toEqual(['events:read']);
  });

  it('allows at most 25 active keys per account', () => {
    expect(decideKeyMinting(facts({ activeKeys: MAX_ACTIVE_KEYS_PER_ACCOUNT - 1 }))).toBeDefined();
    const error = errorOf(() => decideKeyMinting(facts({ activeKeys: MAX_ACTIVE_KEYS_PER_ACCOUNT })));
    expect({ code: error.code, status: error.status }).toEqual({ code: 'key_limit_reached', status: 409 });
  });

  it('gives the operator’s root keys every scope, checkout included', () => {
    const spec = decideKeyMinting({ caller: OPERATOR, account: { live_mode_activated: false }, request: rootKeyRequest('test'), activeKeys: 0 });
    expect(spec).toMatchObject({ mode: 'test', kind: 'secret', scopes: [...ALL_SCOPES] });
    expect(errorOf(() => decideKeyMinting({ caller: OPERATOR, account: { live_mode_activated: false }, request: rootKeyRequest('live'), activeKeys: 0 })).code).toBe(
      'mode_unavailable',
    );
  });
});

describe('scope subset', () => {
  it('counts implied scopes as held', () => {
    expect(missingScopes(['payouts:read'], { kind: 'secret', scopes: ['payouts:claim'] })).toEqual([]);
    expect(missingScopes(['payouts:claim'], { kind: 'secret', scopes: ['payouts:read'] })).toEqual(['payouts:claim']);
  });

  it('confines a publishable caller to checkout whatever it stores', () => {
    expect(missingScopes(['checkout:read', 'events:read'], { kind: 'publishable', scopes: [...SECRET_SCOPES, 'checkout:read'] })).toEqual(['events:read']);
  });
});

describe('publishable keys', () => {
  it('may hold checkout scopes only', () => {
    expect(validKeyRequest({ label: 'web', scopes: ['checkout:write', 'checkout:read'], mode: '', kind: 'publishable' }, 'live')).toEqual({
      label: 'web',
      scopes: ['checkout:read', 'checkout:write'],
      mode: 'live',
      kind: 'publishable',
    });
    for (const scope of SECRET_SCOPES) {
      expect(() => validKeyRequest({ label: 'web', scopes: [scope], mode: '', kind: 'publishable' }, 'test')).toThrow(
        expect.objectContaining({ code: 'parameter_invalid', param: 'scopes[0]' }),
      );
    }
  });
});
