import { createLogger } from '@ticketing/observability';
import { connectRedis } from '@ticketing/redis';
import { activateLive, as, call, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';

describe('account and API keys through the gateway', () => {
  it('confirms a secret key and reports its mode', async () => {
    const account = await createAccount();
    const response = await as(account.secret_key).get('/v1/account');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: account.account_id, object: 'account', mode: 'test', livemode: false });
  });

  it('mints a key shown once, lists it without the secret, and stores only a hash', async () => {
    const root = as((await createAccount()).secret_key);
    const minted = await root.post('/v1/account/keys', { label: 'door scanners', scopes: ['scanning:write'] });
    expect(minted.status).toBe(200);
    expect(minted.body).toMatchObject({
      object: 'api_key',
      label: 'door scanners',
      scopes: ['scanning:write'],
      mode: 'test',
      kind: 'secret',
      revoked_at: null,
    });
    const secret: string = minted.body.secret;
    expect(secret).toMatch(/^sk_test_/);
    expect(secret.startsWith(minted.body.prefix)).toBe(true);

    const listed = await root.get('/v1/account/keys');
    expect(listed.body.object).toBe('list');
    const record = listed.body.data.find((key: { id: string }) => key.id === minted.body.id);
    expect(record).toBeDefined();
    expect(record).not.toHaveProperty('secret');
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const rows = await queryServiceDatabase('identity', 'SELECT * FROM api_keys WHERE id = $1', [minted.body.id]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('shows a minted key’s secret once, even to a retry under its Idempotency-Key, so a replay gives no key a secret', async () => {
    const account = await createAccount();
    const root = as(account.secret_key);
    const narrow = as((await root.post('/v1/account/keys', { label: 'key admin', scopes: ['keys:manage'] })).body.secret);
    const body = { label: 'powerful', scopes: ['events:write'] };
    const headers = { 'Idempotency-Key': 'mint-powerful' };

    const minted = await root.post('/v1/account/keys', body, headers);
    expect(minted.body.secret).toMatch(/^sk_test_/);
    const replayed = await root.post('/v1/account/keys', body, headers);
    expect({ status: replayed.status, replayed: replayed.headers.get('idempotent-replayed'), body: replayed.body }).toEqual({
      status: 200,
      replayed: 'true',
      body: { ...minted.body, secret: null },
    });
    // Keys are scoped per account and mode (decision 0009): another key of the account replaying
    // the request, one without events:write, sees the key as a listing would, never its secret.
    const borrowed = await narrow.post('/v1/account/keys', body, headers);
    expect({ status: borrowed.status, replayed: borrowed.headers.get('idempotent-replayed'), body: borrowed.body }).toEqual({ status: 200, replayed: 'true', body: replayed.body });

    // Stored nowhere: not in the gateway's record of the answer (identity's: e2e/idempotency-crash).
    const redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', createLogger('e2e', 'silent'));
    try {
      const records = await redis.keys(`idempotency:*:${account.account_id}:*`);
      expect(records.length).toBeGreaterThan(0);
      for (const record of records) expect((await redis.get(record)) ?? '').not.toContain(minted.body.secret);
    } finally {
      await redis.close();
    }
    expect((await root.get('/v1/account/keys')).body.data.filter((key: { label: string }) => key.label === 'powerful')).toHaveLength(1);
  });

  it('enforces the minting rules', async () => {
    const root = as((await createAccount()).secret_key);
    const narrow = (await root.post('/v1/account/keys', { label: 'reader', scopes: ['events:read', 'keys:manage'] })).body.secret;

    const broader = await as(narrow).post('/v1/account/keys', { label: 'escalate', scopes: ['events:write'] });
    expect(broader.status).toBe(403);
    expect(broader.body.error.code).toBe('scope_not_held');

    const live = await root.post('/v1/account/keys', { label: 'live', scopes: ['events:read'], mode: 'live' });
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe('mode_unavailable');
  });

  it('never lets a test key mint a live key, and live mode needs activation', async () => {
    const account = await createAccount();
    const { secret_key: liveKey } = await activateLive(account.account_id);
    expect(liveKey).toMatch(/^sk_live_/);

    const fromTest = await as(account.secret_key).post('/v1/account/keys', { label: 'x', scopes: ['events:read'], mode: 'live' });
    expect(fromTest.status).toBe(403);
    expect(fromTest.body.error.code).toBe('mode_not_allowed');

    const fromLive = await as(liveKey).post('/v1/account/keys', { label: 'x', scopes: ['events:read'] });
    expect(fromLive.status).toBe(200);
    expect(fromLive.body.secret).toMatch(/^sk_live_/);
    expect((await as(liveKey).get('/v1/account')).body).toMatchObject({ mode: 'live', livemode: true });
  });

  it('lets a live key list and revoke the test keys it can mint; a test key sees and touches test keys alone (decision 0047)', async () => {
    const account = await createAccount();
    const { secret_key: liveKey } = await activateLive(account.account_id);
    const testMinted = (await as(account.secret_key).post('/v1/account/keys', { label: 'test one', scopes: ['events:read'] })).body;
    const mintedByLive = (await as(liveKey).post('/v1/account/keys', { label: 'sandbox CI', scopes: ['events:read'], mode: 'test' })).body;
    expect(mintedByLive.secret).toMatch(/^sk_test_/);

    const testList = (await as(account.secret_key).get('/v1/account/keys?limit=100')).body.data;
    expect(testList.map((key: { mode: string }) => key.mode)).toEqual(['test', 'test', 'test']);
    const liveList = (await as(liveKey).get('/v1/account/keys?limit=100')).body.data;
    expect(liveList.map((key: { id: string }) => key.id).sort()).toEqual([...testList.map((key: { id: string }) => key.id), liveList.find((key: { mode: string }) => key.mode === 'live').id].sort());

    expect((await as(liveKey).delete(`/v1/account/keys/${mintedByLive.prefix}`)).body).toMatchObject({ mode: 'test', revoked_at: expect.any(String) });
    expect((await as(mintedByLive.secret).get('/v1/events')).status).toBe(401);
    const liveKeyPrefix = liveList.find((key: { mode: string }) => key.mode === 'live').prefix;
    expect((await as(account.secret_key).delete(`/v1/account/keys/${liveKeyPrefix}`)).status).toBe(404);
    expect((await as(liveKey).get('/v1/account')).status).toBe(200);
    expect((await as(testMinted.secret).get('/v1/events')).status).toBe(200);
  });

  it('revokes a key immediately, keeps it listed, and never revokes the calling key', async () => {
    const root = as((await createAccount()).secret_key);
    const minted = (await root.post('/v1/account/keys', { label: 'temp', scopes: ['events:read'] })).body;
    expect((await as(minted.secret).get('/v1/events')).status).toBe(200);

    const revoked = await root.delete(`/v1/account/keys/${minted.prefix}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));

    const refused = await as(minted.secret).get('/v1/events');
    expect(refused.status).toBe(401);
    expect(refused.body.error.type).toBe('authentication_error');

    const listed = (await root.get('/v1/account/keys?limit=100')).body.data.find((key: { id: string }) => key.id === minted.id);
    expect(listed.revoked_at).toEqual(expect.any(String));

    const self = (await root.get('/v1/account/keys?limit=100')).body.data.find((key: { label: string }) => key.label !== 'temp');
    const selfRevoke = await root.delete(`/v1/account/keys/${self.prefix}`);
    expect(selfRevoke.status).toBe(400);
    expect(selfRevoke.body.error.code).toBe('cannot_revoke_self');
  });

  it('allows at most 25 active keys per account', async () => {
    const root = as((await createAccount()).secret_key);
    const results = [];
    for (let index = 0; index < 25; index += 1) {
      results.push((await root.post('/v1/account/keys', { label: `k${index}`, scopes: ['events:read'] })).status);
    }
    // The account's own root key is the first of the 25.
    expect(results.filter((status) => status === 200)).toHaveLength(24);
    const refused = await root.post('/v1/account/keys', { label: 'one too many', scopes: ['events:read'] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('key_limit_reached');
  });

  it('refuses a key without the scope, a publishable key on secret endpoints, and a secret key on checkout', async () => {
    const root = as((await createAccount()).secret_key);
    const reader = (await root.post('/v1/account/keys', { label: 'reader', scopes: ['events:read'] })).body.secret;
    const forbidden = await as(reader).post('/v1/events', { name: 'x', starts_at: '2027-01-01T00:00:00Z' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toMatchObject({ type: 'authorization_error', code: 'forbidden', message: 'Missing required scope: events:write' });

    const publishable = (await root.post('/v1/account/keys', { label: 'web', scopes: ['checkout:read', 'checkout:write'], kind: 'publishable' })).body;
    expect(publishable.secret).toMatch(/^pk_test_/);
    expect((await as(publishable.secret).get('/v1/events')).status).toBe(401);
    expect((await as(publishable.secret).get('/v1/account')).status).toBe(401);
    expect((await root.post('/v1/checkout/sessions', {})).status).toBe(401);
    expect((await call('GET', '/v1/account', { headers: { 'x-api-key': reader } })).status).toBe(200);
  });
});
