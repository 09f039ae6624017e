import type { CachedKey } from '@ticketing/auth';
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
    const key: CachedKey = {
      key_id: 'key_1',
      prefix: 'sk_live_abc',
      account_id: 'acct_1',
      mode: 'live',
      kind: 'secret',
      scopes: [],
      revoked: false,
      account: { name: 'Acme', live_mode_activated: true, created_at: '2027-01-01T00:00:00.000Z' },
    };
    expect(presentAccount(key)).toEqual({
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

  it('shows an event with every field of the resource schema, unset ones as null', () => {
    const tier = {
      id: 'tier_1',
      livemode: false,
      event_id: 'evt_1',
      name: 'Floor',
      price: 4500,
      currency: 'EUR',
      capacity: 100,
      held: 3,
      sold: 7,
      sales_start_at: '',
      sales_end_at: '2027-06-30T00:00:00.000Z',
      min_per_order: 1,
      max_per_order: 0,
      seated: false,
      rank: 0,
      created_at: '2027-01-01T00:00:00.000Z',
      updated_at: '2027-01-01T00:00:00.000Z',
    };
    const event = presentEvent({
      id: 'evt_1',
      livemode: false,
      name: 'Harbour Lights',
      description: '',
      organization_id: '',
      venue: { name: 'Paradiso', address: '', city: 'Amsterdam', country: 'NL', timezone: 'Europe/Amsterdam' },
      starts_at: '2027-07-01T20:00:00.000Z',
      ends_at: '',
      category: 'music',
      tags: ['jazz'],
      currency: 'EUR',
      status: 'published',
      waiting_room: { enabled: false, admission_rate_per_minute: 0 },
      tiers: [tier],
      has_seatmap: false,
      created_at: '2027-01-01T00:00:00.000Z',
      updated_at: '2027-01-02T00:00:00.000Z',
    });
    expect(event).toMatchObject({
      object: 'event',
      description: null,
      organization_id: null,
      ends_at: null,
      venue: { name: 'Paradiso', address: null, city: 'Amsterdam' },
      waiting_room: { enabled: false, admission_rate_per_minute: null },
    });
    expect(event.tiers[0]).toMatchObject({ object: 'tier', available: 90, sales_start_at: null, max_per_order: null });
    expect(eventResource.strict().parse(event)).toEqual(event);
  });

  it('refuses to present an event status it does not know rather than guess', () => {
    expect(() =>
      presentEvent({
        id: 'evt_1', livemode: false, name: 'x', description: '', organization_id: '', venue: undefined, starts_at: '', ends_at: '', category: '', tags: [],
        currency: 'EUR', status: 'postponed', waiting_room: undefined, tiers: [], has_seatmap: false, created_at: '', updated_at: '',
      }),
    ).toThrow(/unknown event status/);
  });
});
