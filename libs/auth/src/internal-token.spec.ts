import { internalTokenFor, signInternalToken, verifiedInternalToken, verifyInternalToken } from './internal-token';

const secret = 'a-test-secret-of-enough-length';

describe('internal token', () => {
  const principal = {
    tenant: { account_id: 'acct_1', mode: 'live' as const },
    key: { id: 'key_1', prefix: 'sk_live_abc', kind: 'secret' as const, scopes: ['events:read'] },
  };

  it('round-trips the principal, and never signs a request id into it', () => {
    expect(verifyInternalToken(signInternalToken(principal, secret), secret)).toEqual(principal);
    expect(verifyInternalToken(signInternalToken({ ...principal, request_id: 'req_1' } as never, secret), secret)).toEqual(principal);
  });

  it('refuses a token signed with another secret, an expired one and garbage', () => {
    expect(() => verifyInternalToken(signInternalToken(principal, 'another-secret-of-enough-length'), secret)).toThrow();
    expect(() => verifyInternalToken(signInternalToken(principal, secret, -1), secret)).toThrow();
    expect(() => verifyInternalToken('not-a-token', secret)).toThrow();
  });

  it('reuses one signed token per principal, and a different one for another principal or secret', () => {
    const token = internalTokenFor(principal, secret);
    expect(internalTokenFor({ ...principal }, secret)).toBe(token);
    expect(internalTokenFor({ tenant: { ...principal.tenant, mode: 'test' }, key: principal.key }, secret)).not.toBe(token);
    // A key whose scopes changed is another principal: its token must say so.
    const rescoped = { ...principal, key: { ...principal.key, scopes: ['events:read', 'events:write'] } };
    expect(verifiedInternalToken(internalTokenFor(rescoped, secret), secret)).toEqual(rescoped);
    expect(verifiedInternalToken(internalTokenFor({ key: principal.key }, secret), secret)).toEqual({ key: principal.key });
    expect(internalTokenFor(principal, 'another-secret-of-enough-length')).not.toBe(token);
    expect(verifiedInternalToken(token, secret)).toEqual(principal);
  });

  it('remembers only tokens that verified: a forged or expired one is refused every time', () => {
    const forged = signInternalToken(principal, 'another-secret-of-enough-length');
    expect(() => verifiedInternalToken(forged, secret)).toThrow();
    expect(() => verifiedInternalToken(forged, secret)).toThrow();
    const expired = signInternalToken(principal, secret, -1);
    expect(() => verifiedInternalToken(expired, secret)).toThrow();
    const genuine = internalTokenFor(principal, secret);
    expect(verifiedInternalToken(genuine, secret)).toEqual(principal);
    expect(() => verifiedInternalToken(genuine, 'another-secret-of-enough-length')).toThrow();
  });
});
