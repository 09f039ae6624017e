import { createLogger } from '@ticketing/observability';
import { connectRedis, type RedisClient } from '@ticketing/redis';
import { waitFor } from '@ticketing/testing';
import { as, createAccount, type ApiResponse } from './support/api';
import { onSale, PRICE, sale } from './support/on-sale';
import { queryServiceDatabase } from './support/databases';
import { isRunning, kill, restart } from './support/processes';
import { readPids } from './support/system';

/**
 * A write whose reply is lost (the service or the gateway dies after the commit, or the
 * gateway's Redis record vanishes) is retried with the same Idempotency-Key and is written
 * once: the retry gets the committed result from the service's own record (decision 0025).
 */
describe('idempotency: one write per key when a process dies or Redis forgets', () => {
  let redis: RedisClient;

  beforeAll(async () => {
    redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', createLogger('e2e', 'silent'));
  });

  afterAll(async () => {
    // Leave the system as the suite started it: catalog without a reply delay, a gateway running.
    await restart('catalog');
    if (!isRunning(readPids().gateway!)) await restart('gateway');
    await redis.close();
  });

  /** Catalog that holds every reply for a minute after its commit: long enough to kill something in between. */
  const startSlowCatalog = () => restart('catalog', { REPLY_DELAY_MS: '60000' });

  const eventsNamed = (accountId: string, name: string) =>
    queryServiceDatabase<{ id: string }>('catalog', 'SELECT id FROM events WHERE account_id = $1 AND name = $2', [accountId, name]);

  const committed = (accountId: string, name: string) =>
    waitFor(`catalog to commit ${name}`, async () => {
      const rows = await eventsNamed(accountId, name);
      return rows.length > 0 ? rows[0]!.id : undefined;
    });

  /** Forgets the gateway's records of the account's keys, as a Redis restart without persistence would. */
  async function forgetGatewayRecords(accountId: string): Promise<void> {
    for (const pattern of [`idempotency:*:${accountId}:*`, `idempotency-lock:*:${accountId}:*`]) {
      const keys = await redis.keys(pattern);
      if (keys.length > 0) await redis.del(keys);
    }
  }

  const expectReplayOf = (response: ApiResponse, id: string) => {
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(id);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
  };

  it('catalog killed after the commit and before the reply: the retry gets the committed event', async () => {
    const account = await createAccount();
    const api = as(account.secret_key);
    const body = { name: `Killed Catalog ${Date.now()}`, starts_at: '2027-08-01T18:00:00Z' };
    const headers = { 'Idempotency-Key': 'catalog-dies' };
    await startSlowCatalog();

    const first = api.post('/v1/events', body, headers);
    const eventId = await committed(account.account_id, body.name);
    await kill(readPids().catalog!);
    const lost = await first;
    expect(lost.status).toBe(503);
    expect(lost.body.error.code).toBe('service_unavailable');

    await restart('catalog');
    expectReplayOf(await api.post('/v1/events', body, headers), eventId);
    expect((await api.post('/v1/events', { ...body, name: 'Another event' }, headers)).body.error.code).toBe('idempotency_key_reused');
    expect(await eventsNamed(account.account_id, body.name)).toHaveLength(1);
  });

  it('gateway killed mid-request: once its reservation lapses, the retry gets the committed event', async () => {
    const account = await createAccount();
    const api = as(account.secret_key);
    const body = { name: `Killed Gateway ${Date.now()}`, starts_at: '2027-08-01T18:00:00Z' };
    const headers = { 'Idempotency-Key': 'gateway-dies' };
    await startSlowCatalog();

    const first = api.post('/v1/events', body, headers).catch((error: Error) => error);
    const eventId = await committed(account.account_id, body.name);
    await kill(readPids().gateway!);
    expect(await first).toMatchObject({ message: 'fetch failed' });
    await Promise.all([restart('gateway'), restart('catalog')]);

    // The dead gateway's reservation still holds the key: no second attempt runs meanwhile.
    expect((await api.post('/v1/events', body, headers)).body.error.code).toBe('idempotency_key_in_use');
    // It lapses after 60 s; dropping it stands for the wait.
    await redis.del(`idempotency-lock:test:${account.account_id}:gateway-dies`);
    const replay = await api.post('/v1/events', body, headers);
    expectReplayOf(replay, eventId);
    expect(await eventsNamed(account.account_id, body.name)).toHaveLength(1);
    // The restarted gateway keeps the suite's settings, so the suites after this one are not rate limited.
    expect(replay.headers.get('ratelimit-limit')).toBe('10000');
  });

  it('a sale still on its way after the gateway gave up: the retry is told the key is in use, then gets the tickets sold once (0041)', async () => {
    const account = await createAccount();
    const api = as(account.secret_key);
    const { eventId, tierId } = await onSale(api, { capacity: 2 });
    const headers = { 'Idempotency-Key': 'sale-on-its-way' };
    // The gateway gives up after 2 s; ticketing's calls to catalog, answered after 5 s, go on.
    await Promise.all([restart('gateway', { GRPC_DEADLINE_MS: '2000' }), restart('catalog', { REPLY_DELAY_MS: '5000' })]);
    try {
      const first = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId), headers);
      expect(first.status).toBe(503);
      // The first call holds the whole tier: a retry acting on its own would be told sold_out.
      const retried = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId), headers);
      expect(retried.status).toBe(409);
      expect(retried.body.error.code).toBe('idempotency_key_in_use');
      const issued = () => queryServiceDatabase<{ id: string }>('ticketing', "SELECT id FROM issuances WHERE account_id = $1 AND status = 'issued'", [account.account_id]);
      const [issuance] = await waitFor('the first call to issue its tickets', async () => {
        const rows = await issued();
        return rows.length > 0 ? rows : undefined;
      });
      const replay = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId), headers);
      expectReplayOf(replay, issuance!.id);
      expect(replay.body.tickets).toHaveLength(2);
      expect(await issued()).toHaveLength(1);
    } finally {
      await Promise.all([restart('gateway'), restart('catalog')]);
    }
  }, 90_000);

  it('gateway records lost (Redis restarted, or the 2xx was sent but not stored): catalog and identity answer from their records', async () => {
    const account = await createAccount();
    const api = as(account.secret_key);
    const body = { name: `Forgotten ${Date.now()}`, starts_at: '2027-08-01T18:00:00Z' };
    const created = await api.post('/v1/events', body, { 'Idempotency-Key': 'forgotten-event' });
    expect(created.status).toBe(200);
    const minted = await api.post('/v1/account/keys', { label: 'Box office', scopes: ['events:read'] }, { 'Idempotency-Key': 'forgotten-key' });
    expect(minted.status).toBe(200);

    await forgetGatewayRecords(account.account_id);

    expectReplayOf(await api.post('/v1/events', body, { 'Idempotency-Key': 'forgotten-event' }), created.body.id);
    expect(await eventsNamed(account.account_id, body.name)).toHaveLength(1);
    const remint = await api.post('/v1/account/keys', { label: 'Box office', scopes: ['events:read'] }, { 'Idempotency-Key': 'forgotten-key' });
    expectReplayOf(remint, minted.body.id);
    // The secret was shown once and is stored nowhere, identity's record included.
    expect({ minted: minted.body.secret, remint: remint.body.secret }).toEqual({ minted: expect.stringMatching(/^sk_test_/), remint: null });
    const keys = await queryServiceDatabase<{ id: string }>('identity', "SELECT id FROM api_keys WHERE account_id = $1 AND label = 'Box office'", [account.account_id]);
    expect(keys).toHaveLength(1);
  });

  it('does not carry out a sale that waited unread in a paused ticketing past the gateway’s deadline (decision 0025)', async () => {
    const account = await createAccount();
    const api = as(account.secret_key);
    const { eventId, tierId } = await onSale(api, { capacity: 2 });
    await restart('gateway', { GRPC_DEADLINE_MS: '2000' });
    try {
      // The gateway's channel to ticketing is open, so the sale reaches ticketing's socket while
      // ticketing is paused; the gateway gives up after 2 s.
      expect((await api.get('/v1/tickets')).status).toBe(200);
      const ticketing = readPids().ticketing!;
      process.kill(ticketing, 'SIGSTOP');
      let told: ApiResponse;
      try {
        told = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId));
      } finally {
        process.kill(ticketing, 'SIGCONT');
      }
      expect(told.status).toBe(503);
      // Resumed, ticketing reads the first sale before this one: had it run it, it would have sold the whole tier.
      const next = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId, { payment: { type: 'external', reference: 'order-2', amount: 2 * PRICE } }));
      expect(next.status).toBe(200);
      expect(await queryServiceDatabase('ticketing', 'SELECT id FROM issuances WHERE account_id = $1', [account.account_id])).toEqual([{ id: next.body.id }]);
    } finally {
      await restart('gateway');
    }
  }, 60_000);
});
