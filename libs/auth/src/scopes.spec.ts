import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-key';
import { effectiveScopes } from './scopes';

describe('effectiveScopes', () => {
  it('confines publishable keys to checkout scopes whatever is stored', () => {
    expect(effectiveScopes('publishable', ['checkout:read', 'events:write', 'keys:manage'])).toEqual(new Set(['checkout:read']));
  });

  it('adds implied scopes and drops unknown ones', () => {
    expect(effectiveScopes('secret', ['payouts:claim', 'made:up'])).toEqual(new Set(['payouts:claim', 'payouts:read']));
  });
});

describe('API keys', () => {
  it.each([
    ['secret', 'test', /^sk_test_/],
    ['secret', 'live', /^sk_live_/],
    ['publishable', 'test', /^pk_test_/],
    ['publishable', 'live', /^pk_live_/],
  ] as const)('generates %s %s keys with their prefix, a unique public prefix and a hash', (kind, mode, pattern) => {
    const key = generateApiKey(kind, mode);
    expect(key.secret).toMatch(pattern);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeLessThan(key.secret.length);
    expect(key.hash).toBe(hashApiKey(key.secret));
    expect(key.hash).not.toContain(key.secret);
    expect(looksLikeApiKey(key.secret)).toBe(true);
  });

  it('rejects strings that are not keys', () => {
    expect(looksLikeApiKey('sk_prod_abcdefghijklmnopqrstuvwxyz')).toBe(false);
    expect(looksLikeApiKey('sk_test_short')).toBe(false);
  });
});
