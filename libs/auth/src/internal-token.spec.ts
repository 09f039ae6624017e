import { signInternalToken, verifyInternalToken } from './internal-token';

const secret = 'a-test-secret-of-enough-length';

describe('internal token', () => {
  const claims = {
    request_id: 'req_1',
    tenant: { account_id: 'acct_1', mode: 'live' as const },
    key: { id: 'key_1', prefix: 'sk_live_abc', kind: 'secret' as const, scopes: ['events:read'] },
  };

  it('round-trips the claims', () => {
    expect(verifyInternalToken(signInternalToken(claims, secret), secret)).toEqual(claims);
  });

  it('refuses a token signed with another secret, an expired one and garbage', () => {
    expect(() => verifyInternalToken(signInternalToken(claims, 'another-secret-of-enough-length'), secret)).toThrow();
    expect(() => verifyInternalToken(signInternalToken(claims, secret, -1), secret)).toThrow();
    expect(() => verifyInternalToken('not-a-token', secret)).toThrow();
  });
});
