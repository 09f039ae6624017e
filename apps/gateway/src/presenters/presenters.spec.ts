import { presentAccount } from './account.presenter';
import { apiKeyResource, presentApiKey, presentCreatedApiKey } from './api-key.presenter';
import { eventResource, presentEvent } from './event.presenter';

const activeKey = {
  id: 'key_01',
  prefix: 'sk_test_abcdefghijkl',
  label: 'door scanners',
  scopes: ['scanning:write'],
  mode: 'test',
  kind: 'secret',
  created_at: '2027-01-01T00:00:00.000Z',
  revoked_at: '',
};

describe('presenters', () => {
  it('shows an active key with revoked_at null, never omitted', () => {
    const presented = presentApiKey(activeKey);
    expect(presented).toEqual({
      id: 'key_01',
      object: 'api_key',
      livemode: false,
      prefix: 'sk_test_abcdefghijkl',
      label: 'door scanners',
      scopes: ['scanning:write'],
      mode: 'test',
      kind: 'secret',
      created_at: '2027-01-01T00:00:00.000Z',
      revoked_at: null,
    });
    expect(apiKeyResource.parse(presented)).toEqual(presented);
  });

  it('shows a revoked live key with its revocation time', () => {
    expect(presentApiKey({ ...activeKey, mode: 'live', revoked_at: '2027-02-01T00:00:00.000Z' })).toMatchObject({ livemode: true, revoked_at: '2027-02-01T00:00:00.000Z' });
  });

  it('adds the secret only to the response that mints the key', () => {
    expect(presentCreatedApiKey({ key: activeKey, secret: 'sk_test_secret' })).toMatchObject({ object: 'api_key', secret: 'sk_test_secret' });
    expect(presentApiKey(activeKey)).not.toHaveProperty('secret');
    expect(() => presentCreatedApiKey({ key: undefined, secret: 'sk_test_secret' })).toThrow();
  });

  it('shows the account in the mode of the key that asked', () => {
    expect(presentAccount({ id: 'acct_1', name: 'Acme', mode: 'live', live_mode_activated: true, created_at: '2027-01-01T00:00:00.000Z' })).toEqual({
      id: 'acct_1',
      object: 'account',
      livemode: true,
      name: 'Acme',
      mode: 'live',
      live_mode_activated: true,
      created_at: '2027-01-01T00:00:00.000Z',
    });
  });

  it('refuses to present a mode it does not know rather than guess', () => {
    expect(() => presentApiKey({ ...activeKey, mode: 'prod' })).toThrow(/unknown mode/);
  });

  it('shows an event with every field of the resource schema', () => {
    const event = presentEvent({
      id: 'evt_1',
      livemode: false,
      name: 'Harbour Lights',
      starts_at: '2027-07-01T20:00:00.000Z',
      created_at: '2027-01-01T00:00:00.000Z',
      updated_at: '2027-01-02T00:00:00.000Z',
    });
    expect(event).toMatchObject({ object: 'event', livemode: false, name: 'Harbour Lights' });
    expect(eventResource.strict().parse(event)).toEqual(event);
  });
});
