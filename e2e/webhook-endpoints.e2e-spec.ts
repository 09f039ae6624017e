import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@ticketing/testing';
import { activateLive, as, createAccount } from './support/api';
import { type Client, ids, walkList } from './support/lists';
import { E2E_LOG_DIR } from './support/system';

const HOOK = 'https://hooks.northside.example/ticketing';
const DAY_MS = 24 * 60 * 60 * 1000;

/** An endpoint as every answer but create and rotate shows it: without its secret. */
const withoutSecret = ({ secret: _secret, ...endpoint }: Record<string, unknown>) => endpoint;

const endpointIds = async (client: Client) => ids((await client.get('/v1/webhook_endpoints?limit=100')).body);

describe('webhook endpoints through the gateway', () => {
  it('creates, reads, changes, rotates and deletes an endpoint, showing the secret only on create and rotate', async () => {
    const api = as((await createAccount()).secret_key);
    const created = await api.post('/v1/webhook_endpoints', { url: HOOK, enabled_events: ['ticket.issued', 'event.published'], description: 'Order system' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^we_[0-9A-Z]{26}$/),
      object: 'webhook_endpoint',
      livemode: false,
      url: HOOK,
      enabled_events: ['ticket.issued', 'event.published'],
      description: 'Order system',
      metadata: {},
      status: 'enabled',
      disabled_reason: null,
      previous_secret_expires_at: null,
      secret: expect.stringMatching(/^whsec_/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id: string = created.body.id;
    const path = `/v1/webhook_endpoints/${id}`;
    const read = await api.get(path);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(withoutSecret(created.body));
    expect((await api.get('/v1/webhook_endpoints')).body.data).toEqual([withoutSecret(created.body)]);

    // Each field alone, the others kept as they were.
    const changes: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ url: 'https://hooks.northside.example/v2' }, { url: 'https://hooks.northside.example/v2' }],
      [{ enabled_events: ['*'] }, { enabled_events: ['*'] }],
      [{ description: 'Box office' }, { description: 'Box office' }],
      [{ description: null }, { description: null }],
      [{ metadata: { team: 'ops', region: 'eu' } }, { metadata: { team: 'ops', region: 'eu' } }],
      [{ metadata: { team: 'sales' } }, { metadata: { team: 'sales' } }],
      [{ metadata: {} }, { metadata: {} }],
      [{ disabled: true }, { status: 'disabled', disabled_reason: 'by_request' }],
      [{ disabled: false }, { status: 'enabled', disabled_reason: null }],
    ];
    let expected = read.body;
    for (const [body, effect] of changes) {
      const changed = await api.patch(path, body);
      expected = { ...expected, ...effect, updated_at: expect.any(String) };
      expect({ body, status: changed.status, answer: changed.body }).toEqual({ body, status: 200, answer: expected });
      expect({ body, read: (await api.get(path)).body }).toEqual({ body, read: expected });
    }

    const rotated = await api.post(`${path}/rotate_secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const overlapEnds = Date.parse(rotated.body.previous_secret_expires_at);
    expect(Math.abs(overlapEnds - (Date.now() + DAY_MS))).toBeLessThan(5 * 60 * 1000);
    expect((await api.get(path)).body).toEqual(withoutSecret(rotated.body));

    // No process logs a secret: the logs that name this endpoint's calls hold neither of its secrets.
    const logs = await waitFor('the gateway and webhooks logs to name the rotation', async () => {
      const text = ['gateway', 'webhooks'].map((service) => readFileSync(join(E2E_LOG_DIR, `${service}.log`), 'utf8')).join('\n');
      return text.includes(`/v1/webhook_endpoints/${id}/rotate_secret`) && text.includes('rotateEndpointSecret') ? text : undefined;
    });
    for (const secret of [created.body.secret, rotated.body.secret]) expect(logs).not.toContain(secret.slice('whsec_'.length));

    const deleted = await api.delete(path);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id, object: 'webhook_endpoint', deleted: true });
    const gone = await api.get(path);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing' });
    expect((await api.patch(path, { description: 'back?' })).status).toBe(404);
    expect((await api.post(`${path}/rotate_secret`)).status).toBe(404);
    expect((await api.delete(path)).status).toBe(404);
    expect(await endpointIds(api)).toEqual([]);
  });

  it('lists newest first over pages, and a deleted endpoint’s id still marks its place', async () => {
    const api = as((await createAccount()).secret_key);
    const created: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const response = await api.post('/v1/webhook_endpoints', { url: `${HOOK}/${index}`, enabled_events: ['*'] });
      expect(response.status).toBe(200);
      created.push(response.body.id);
    }
    const newestFirst = [...created].reverse();
    expect(await walkList(api, '/v1/webhook_endpoints', 2)).toEqual({ ids: newestFirst, hasMoreFlags: [true, true, false] });

    const [, , middle] = newestFirst;
    expect((await api.delete(`/v1/webhook_endpoints/${middle}`)).status).toBe(200);
    const after = await api.get(`/v1/webhook_endpoints?limit=1&starting_after=${middle}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ object: 'list', has_more: true });
    expect(ids(after.body)).toEqual([newestFirst[3]]);
    expect(ids((await api.get(`/v1/webhook_endpoints?starting_after=${middle}`)).body)).toEqual(newestFirst.slice(3));
    expect(await endpointIds(api)).toEqual(newestFirst.filter((id) => id !== middle));
  });

  it('refuses unknown event types, "*" with others, and destinations that are not public, naming the parameter', async () => {
    const account = await createAccount();
    const test = as(account.secret_key);
    const live = as((await activateLive(account.account_id)).secret_key);
    const cases: Array<[string, Client, Record<string, unknown>, string]> = [
      ['an unknown event type', test, { url: HOOK, enabled_events: ['ticket.exploded'] }, 'enabled_events[0]'],
      ['"*" beside a type', test, { url: HOOK, enabled_events: ['*', 'ticket.issued'] }, 'enabled_events'],
      ['http in live mode', live, { url: 'http://hooks.northside.example/ticketing', enabled_events: ['*'] }, 'url'],
      ['a private address', test, { url: 'https://10.0.0.5/hook', enabled_events: ['*'] }, 'url'],
      ['the cloud metadata address', test, { url: 'https://169.254.169.254/', enabled_events: ['*'] }, 'url'],
      ['loopback over http in live mode', live, { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'] }, 'url'],
      ['loopback over https in live mode', live, { url: 'https://127.0.0.1:9/hook', enabled_events: ['*'] }, 'url'],
      ['localhost in live mode', live, { url: 'https://localhost/hook', enabled_events: ['*'] }, 'url'],
      // Other spellings of forbidden addresses: IPv6 loopback, IPv4-mapped, numeric, the unspecified one, metadata host names.
      ['IPv6 loopback in live mode', live, { url: 'https://[::1]/hook', enabled_events: ['*'] }, 'url'],
      ['loopback as one number in live mode', live, { url: 'https://2130706433/hook', enabled_events: ['*'] }, 'url'],
      ['an IPv4-mapped private address', test, { url: 'https://[::ffff:10.0.0.5]/hook', enabled_events: ['*'] }, 'url'],
      ['an IPv4-mapped metadata address', test, { url: 'https://[::ffff:169.254.169.254]/', enabled_events: ['*'] }, 'url'],
      ['the unspecified address', test, { url: 'https://0.0.0.0/hook', enabled_events: ['*'] }, 'url'],
      ['a private address over http', test, { url: 'http://192.168.1.1/hook', enabled_events: ['*'] }, 'url'],
      ['the metadata host name', test, { url: 'https://metadata.google.internal/', enabled_events: ['*'] }, 'url'],
    ];
    for (const [label, client, body, param] of cases) {
      const response = await client.post('/v1/webhook_endpoints', body);
      expect({ label, status: response.status }).toEqual({ label, status: 400 });
      expect({ label, error: response.body.error }).toMatchObject({ label, error: { type: 'invalid_request_error', code: 'parameter_invalid', param } });
    }
    expect(await endpointIds(test)).toEqual([]);
    expect(await endpointIds(live)).toEqual([]);

    // The deployment lets test-mode endpoints reach this machine over http, for local receivers.
    const local = await test.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'] });
    expect(local.status).toBe(200);
    expect(local.body).toMatchObject({ url: 'http://127.0.0.1:9/hook', livemode: false });
    const named = await test.post('/v1/webhook_endpoints', { url: 'http://localhost:9/hook', enabled_events: ['*'] });
    expect(named.status).toBe(200);
    expect(named.body.url).toBe('http://localhost:9/hook');
    const liveEndpoint = (await live.post('/v1/webhook_endpoints', { url: HOOK, enabled_events: ['*'] })).body;
    expect(liveEndpoint.livemode).toBe(true);

    const patches: Array<[string, Client, string, Record<string, unknown>, string]> = [
      ['a private address', test, local.body.id, { url: 'https://10.0.0.5/hook' }, 'url'],
      ['http in live mode', live, liveEndpoint.id, { url: 'http://hooks.northside.example/ticketing' }, 'url'],
      ['loopback in live mode', live, liveEndpoint.id, { url: 'https://127.0.0.1:9/hook' }, 'url'],
      ['"*" beside a type', test, local.body.id, { enabled_events: ['ticket.issued', '*'] }, 'enabled_events'],
    ];
    for (const [label, client, id, body, param] of patches) {
      const response = await client.patch(`/v1/webhook_endpoints/${id}`, body);
      expect({ label, status: response.status }).toEqual({ label, status: 400 });
      expect({ label, error: response.body.error }).toMatchObject({ label, error: { code: 'parameter_invalid', param } });
    }
    expect((await test.get(`/v1/webhook_endpoints/${local.body.id}`)).body).toEqual(withoutSecret(local.body));
    expect(await endpointIds(test)).toEqual([named.body.id, local.body.id]);
    expect((await live.get(`/v1/webhook_endpoints/${liveEndpoint.id}`)).body).toEqual(withoutSecret(liveEndpoint));
  });

  it('keeps each endpoint to its account and mode', async () => {
    const account = await createAccount();
    const test = as(account.secret_key);
    const live = as((await activateLive(account.account_id)).secret_key);
    const stranger = as((await createAccount()).secret_key);
    const testEndpoint = (await test.post('/v1/webhook_endpoints', { url: HOOK, enabled_events: ['*'] })).body;
    const liveEndpoint = (await live.post('/v1/webhook_endpoints', { url: HOOK, enabled_events: ['*'] })).body;

    for (const [label, client, id] of [
      ['live key, test endpoint', live, testEndpoint.id],
      ['test key, live endpoint', test, liveEndpoint.id],
      ['another account, test endpoint', stranger, testEndpoint.id],
    ] as const) {
      const path = `/v1/webhook_endpoints/${id}`;
      const attempts = [
        await client.get(path),
        await client.patch(path, { url: 'https://attacker.example/hook' }),
        await client.post(`${path}/rotate_secret`),
        await client.delete(path),
      ];
      expect({ label, statuses: attempts.map((attempt) => attempt.status) }).toEqual({ label, statuses: [404, 404, 404, 404] });
      expect({ label, code: attempts[0]!.body.error.code }).toEqual({ label, code: 'resource_missing' });
    }

    expect(await endpointIds(test)).toEqual([testEndpoint.id]);
    expect(await endpointIds(live)).toEqual([liveEndpoint.id]);
    expect(await endpointIds(stranger)).toEqual([]);
    // Another tenant's id is no cursor either: a list must not tell that it exists.
    for (const [label, client, id] of [
      ['live key, test endpoint', live, testEndpoint.id],
      ['another account, test endpoint', stranger, testEndpoint.id],
    ] as const) {
      const cursor = await client.get(`/v1/webhook_endpoints?starting_after=${id}`);
      expect({ label, status: cursor.status, error: cursor.body.error }).toMatchObject({ label, status: 400, error: { code: 'resource_missing', param: 'starting_after' } });
    }
    expect((await test.get(`/v1/webhook_endpoints/${testEndpoint.id}`)).body).toEqual(withoutSecret(testEndpoint));
    expect((await live.get(`/v1/webhook_endpoints/${liveEndpoint.id}`)).body).toEqual(withoutSecret(liveEndpoint));
  });

  it('needs a secret key with scope webhooks:manage', async () => {
    const root = as((await createAccount()).secret_key);
    const endpoint = (await root.post('/v1/webhook_endpoints', { url: HOOK, enabled_events: ['*'] })).body;
    const reader = as((await root.post('/v1/account/keys', { label: 'reader', scopes: ['events:read'] })).body.secret);
    const refused = [
      await reader.get('/v1/webhook_endpoints'),
      await reader.post('/v1/webhook_endpoints', { url: HOOK, enabled_events: ['*'] }),
      await reader.get(`/v1/webhook_endpoints/${endpoint.id}`),
      await reader.post(`/v1/webhook_endpoints/${endpoint.id}/rotate_secret`),
      await reader.delete(`/v1/webhook_endpoints/${endpoint.id}`),
    ];
    expect(refused.map((response) => response.status)).toEqual([403, 403, 403, 403, 403]);
    expect(refused[0]!.body.error).toMatchObject({ type: 'authorization_error', code: 'forbidden', message: 'Missing required scope: webhooks:manage' });

    const manager = as((await root.post('/v1/account/keys', { label: 'hooks', scopes: ['webhooks:manage'] })).body.secret);
    expect(await endpointIds(manager)).toEqual([endpoint.id]);
    const publishable = (await root.post('/v1/account/keys', { label: 'web', scopes: ['checkout:read'], kind: 'publishable' })).body.secret;
    expect((await as(publishable).get('/v1/webhook_endpoints')).status).toBe(401);
    expect(await endpointIds(root)).toEqual([endpoint.id]);
  });
});
