import { accessDenial } from './authorize.middleware';

const secretKey = (...scopes: string[]) => ({ kind: 'secret' as const, scopes });
const publishableKey = (...scopes: string[]) => ({ kind: 'publishable' as const, scopes });

describe('accessDenial', () => {
  it('refuses a publishable key on a secret route before looking at scopes', () => {
    expect(accessDenial({ kind: 'secret', scope: null }, publishableKey('checkout:read'))).toMatchObject({ code: 'publishable_key_not_allowed', status: 401 });
    expect(accessDenial({ kind: 'secret', scope: 'events:read' }, publishableKey('events:read'))).toMatchObject({ code: 'publishable_key_not_allowed' });
  });

  it('refuses a secret key on a checkout route, whatever its scopes', () => {
    expect(accessDenial({ kind: 'publishable', scope: 'checkout:write' }, secretKey('checkout:write'))).toMatchObject({ code: 'secret_key_not_allowed', status: 401 });
  });

  it('names the missing scope', () => {
    expect(accessDenial({ kind: 'secret', scope: 'events:write' }, secretKey('events:read'))).toMatchObject({
      code: 'forbidden',
      type: 'authorization_error',
      status: 403,
      message: 'Missing required scope: events:write',
    });
  });

  it('lets through a key holding the scope, an implied scope, or any secret key where no scope is needed', () => {
    expect(accessDenial({ kind: 'secret', scope: 'events:read' }, secretKey('events:read'))).toBeUndefined();
    expect(accessDenial({ kind: 'secret', scope: 'payouts:read' }, secretKey('payouts:claim'))).toBeUndefined();
    expect(accessDenial({ kind: 'secret', scope: null }, secretKey())).toBeUndefined();
    expect(accessDenial({ kind: 'publishable', scope: 'checkout:read' }, publishableKey('checkout:read', 'events:write'))).toBeUndefined();
  });
});
