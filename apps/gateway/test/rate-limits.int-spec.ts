import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createClient } from 'redis';
import { connectCachingRedis, connectRedis, type RedisClient } from '@ticketing/redis';
import { silenceableRedis } from '@ticketing/testing';
import { createGatewayApp, type GatewayDeps } from '../src/app';
import { closeGracefully, listen } from '../src/http/http-server';
import { capturingLogger, startBackendDoubles, type BackendDoubles } from './support/backend-doubles';
import { CatalogDouble } from './support/catalog.double';
import { IdentityDouble } from './support/identity.double';
import { isolatedRateLimits } from './support/rate-limits';

const tokenSecret = 'gateway-rate-limit-secret-0123456789';
const OUTAGE_LOG = 'rate limiter cannot reach Redis';

/** Small limits and a window no test outlasts, so counts never reset under a test. */
const WINDOW = 600;
const budgets = {
  account: { points: 3, windowSeconds: WINDOW },
  scanning: { points: 2, windowSeconds: WINDOW },
  key_minting: { points: 1, windowSeconds: WINDOW },
  public: { points: 2, windowSeconds: WINDOW },
  failed_authentication: { points: 2, windowSeconds: WINDOW },
};

const identity = new IdentityDouble();
const catalog = new CatalogDouble();
let redis: RedisClient;
let keyCache: Awaited<ReturnType<typeof connectCachingRedis>>;
let backends: BackendDoubles;
const servers: Server[] = [];

interface Gateway {
  url: string;
  logLines: string[];
  /** What its ops server would expose at /metrics. */
  metrics: Registry;
}

/** A gateway replica in this process; replicas given the same `rateLimits` count together. */
async function startGateway(rateLimits: GatewayDeps['rateLimits']): Promise<Gateway> {
  const { logger, lines: logLines } = capturingLogger();
  const config = { INTERNAL_TOKEN_SECRET: tokenSecret, GRPC_DEADLINE_MS: 5_000, TRUST_PROXY: 'loopback', TICKETING_PAGES_URL: 'http://127.0.0.1:1', PAYMENTS_PAGES_URL: 'http://127.0.0.1:1' };
  const metrics = new Registry();
  const server = await listen(createGatewayApp({ redis, keyCacheRedis: keyCache.client, clients: backends.clients, config, rateLimits, logger, metricsRegistry: metrics }), 0);
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logLines, metrics };
}

let gateway: Gateway;
let replica: Gateway;

beforeAll(async () => {
  redis = await connectRedis('redis://127.0.0.1:6379', pino({ level: 'silent' }));
  keyCache = await connectCachingRedis('redis://127.0.0.1:6379', pino({ level: 'silent' }), 1_000);
  backends = await startBackendDoubles(tokenSecret, identity, catalog);
  const shared = isolatedRateLimits(redis, budgets);
  gateway = await startGateway(shared);
  replica = await startGateway(shared);
});

afterAll(async () => {
  await Promise.all(servers.map(closeGracefully));
  await backends.stop();
  await keyCache.client.close();
  await redis.close();
});

let addresses = 0;
/** A client address of its own for each caller (the gateways trust X-Forwarded-For from loopback). */
const newClientAddress = () => `198.51.100.${(addresses += 1)}`;

async function call(target: Gateway, method: string, path: string, options: { key?: string; from?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { 'x-forwarded-for': options.from ?? newClientAddress() };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${target.url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text };
}
type Answer = Awaited<ReturnType<typeof call>>;

function expectBudget(response: Answer, limit: number, remaining: number): void {
  expect(response.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(response.headers.get('ratelimit-remaining')).toBe(String(remaining));
  const reset = Number(response.headers.get('ratelimit-reset'));
  expect(Number.isInteger(reset) && reset >= 1 && reset <= WINDOW).toBe(true);
}

function expectRateLimited(response: Answer, limit: number): void {
  expect(response.status).toBe(429);
  expect(response.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited', message: expect.stringContaining('Retry-After') });
  expect(response.body.error.request_id).toBe(response.headers.get('request-id'));
  expectBudget(response, limit, 0);
  expect(response.headers.get('retry-after')).toBe(response.headers.get('ratelimit-reset'));
}

const secretKey = (scopes: string[], options: { accountId?: string; mode?: 'test' | 'live'; rateLimitPerSecond?: number } = {}) =>
  identity.issueKey({ scopes, ...options }).secret;

describe('per-account budget', () => {
  it('counts every key of an account in one mode, then answers 429 rate_limited with Retry-After and the RateLimit headers', async () => {
    const first = identity.issueKey({ scopes: [] });
    const second = secretKey([], { accountId: first.accountId });
    for (const [key, remaining] of [[first.secret, 2], [second, 1], [first.secret, 0]] as const) {
      const answered = await call(gateway, 'GET', '/v1/account', { key });
      expect(answered.status).toBe(200);
      expectBudget(answered, 3, remaining);
    }
    expectRateLimited(await call(gateway, 'GET', '/v1/account', { key: second }), 3);

    // The same account's live mode, and any other account, have budgets of their own.
    expectBudget(await call(gateway, 'GET', '/v1/account', { key: secretKey([], { accountId: first.accountId, mode: 'live' }) }), 3, 2);
    expectBudget(await call(gateway, 'GET', '/v1/account', { key: secretKey([]) }), 3, 2);
  });

  it('is one count for every gateway replica sharing the Redis', async () => {
    const key = secretKey([]);
    expectBudget(await call(gateway, 'GET', '/v1/account', { key }), 3, 2);
    expectBudget(await call(replica, 'GET', '/v1/account', { key }), 3, 1);
    expectBudget(await call(gateway, 'GET', '/v1/account', { key }), 3, 0);
    expectRateLimited(await call(replica, 'GET', '/v1/account', { key }), 3);
  });

  it("applies the account's own limit, carried with its verified key", async () => {
    const key = secretKey([], { rateLimitPerSecond: 5 });
    for (let remaining = 4; remaining >= 0; remaining -= 1) {
      const answered = await call(gateway, 'GET', '/v1/account', { key });
      expect(answered.status).toBe(200);
      expectBudget(answered, 5, remaining);
    }
    expectRateLimited(await call(gateway, 'GET', '/v1/account', { key }), 5);
  });

  it('also counts requests the key checks refuse, so 403s carry the headers too', async () => {
    const key = secretKey([]);
    const refused = await call(gateway, 'GET', '/v1/events', { key });
    expect(refused.status).toBe(403);
    expectBudget(refused, 3, 2);
  });
});

describe('separate buckets', () => {
  it('gives key minting its own, stricter bucket, apart from the general budget', async () => {
    const key = secretKey(['keys:manage']);
    const minted = await call(gateway, 'POST', '/v1/account/keys', { key, body: { label: 'door', scopes: ['scanning:write'] } });
    expect(minted.status).toBe(200);
    expectBudget(minted, 1, 0);
    expectRateLimited(await call(replica, 'POST', '/v1/account/keys', { key, body: { label: 'door 2', scopes: ['scanning:write'] } }), 1);

    const listed = await call(gateway, 'GET', '/v1/account/keys', { key });
    expect(listed.status).toBe(200);
    expectBudget(listed, 3, 2);
  });

  it('counts only mints the key may make: a key without keys:manage cannot use up the minting budget', async () => {
    const manager = identity.issueKey({ scopes: ['keys:manage'] });
    const reader = secretKey(['events:read'], { accountId: manager.accountId });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await call(gateway, 'POST', '/v1/account/keys', { key: reader, body: { label: 'x', scopes: ['events:read'] } });
      expect(refused.body.error.code).toBe('forbidden');
    }
    const minted = await call(gateway, 'POST', '/v1/account/keys', { key: manager.secret, body: { label: 'rotation', scopes: ['events:read'] } });
    expect(minted.status).toBe(200);
    expectBudget(minted, 1, 0);
  });

  it('gives door scanning its own budget, so a scanning flood leaves the API budget alone', async () => {
    const scanner = identity.issueKey({ scopes: ['scanning:write'] });
    for (const remaining of [1, 0]) {
      const scanned = await call(gateway, 'POST', '/v1/scan/validate', { key: scanner.secret, body: {} });
      expect(scanned.status).toBe(501);
      expectBudget(scanned, 2, remaining);
    }
    expectRateLimited(await call(gateway, 'POST', '/v1/scan/batch', { key: scanner.secret, body: {} }), 2);

    const api = await call(gateway, 'GET', '/v1/account', { key: secretKey([], { accountId: scanner.accountId }) });
    expect(api.status).toBe(200);
    expectBudget(api, 3, 2);
  });
});

describe('per client address', () => {
  it('limits the public routes per address', async () => {
    const from = newClientAddress();
    for (const remaining of [1, 0]) {
      const health = await call(gateway, 'GET', '/v1/health', { from });
      expect(health.status).toBe(200);
      expectBudget(health, 2, remaining);
    }
    expectRateLimited(await call(replica, 'GET', '/v1/openapi.json', { from }), 2);
    expect((await call(gateway, 'GET', '/v1/health', { from: newClientAddress() })).status).toBe(200);
  });

  it('answers a ticket page past the address’s budget with a page, not the API’s JSON: a holder opened it in a browser', async () => {
    const from = newClientAddress();
    for (const remaining of [1, 0]) expectBudget(await call(gateway, 'GET', '/d/some-token', { from }), 2, remaining);
    const refused = await call(gateway, 'GET', '/d/some-token', { from });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(refused.body).toContain('<h1>Too many requests</h1>');
    expect(refused.body).toContain(`Wait ${refused.headers.get('retry-after')} seconds, then reload.`);
    expectBudget(refused, 2, 0);
    expect(refused.headers.get('retry-after')).toBe(refused.headers.get('ratelimit-reset'));
  });

  it('counts the explorer’s files, unknown routes and URLs that are not valid percent-encoding per address, each answer with the headers', async () => {
    const from = newClientAddress();
    const asset = await call(gateway, 'GET', '/v1/docs/swagger-ui.css', { from });
    expect(asset.status).toBe(200);
    expectBudget(asset, 2, 1);
    const unknownRoute = await call(replica, 'GET', '/v1/nothing-here', { from });
    expect(unknownRoute.body.error.code).toBe('route_not_found');
    expectBudget(unknownRoute, 2, 0);
    expectRateLimited(await call(gateway, 'GET', '/v1/docs', { from }), 2);

    const malformed = [
      ['/v1/events/%FF', undefined],
      ['/v1/payments/%E0%A4%A', undefined],
      ['/v1/events?q=%FF', 'q'],
    ] as const;
    for (const [path, param] of malformed) {
      const refused = await call(gateway, 'GET', path);
      expect({ path, status: refused.status, code: refused.body.error.code, param: refused.body.error.param }).toEqual({ path, status: 400, code: 'parameter_invalid', param });
      expectBudget(refused, 2, 1);
    }
    // Counted once, though the page passes both the explorer's files and its own public route.
    expectBudget(await call(gateway, 'GET', '/v1/docs'), 2, 1);
    // OPTIONS too (204 with Allow).
    const asked = newClientAddress();
    expectBudget(await call(gateway, 'OPTIONS', '/v1/events', { from: asked }), 2, 1);
    expectBudget(await call(gateway, 'OPTIONS', '/v1/events', { from: asked }), 2, 0);
    expectRateLimited(await call(gateway, 'OPTIONS', '/v1/events', { from: asked }), 2);
  });

  it('refuses an address past its failed authentications with 429 before looking up any key it sends', async () => {
    const from = newClientAddress();
    const unknown = 'sk_test_' + 'x'.repeat(32);
    const verifiedBefore = secretKey([]);
    expect((await call(gateway, 'GET', '/v1/account', { key: verifiedBefore, from })).status).toBe(200);
    for (const [index, target] of [gateway, replica].entries()) {
      const refused = await call(target, 'GET', '/v1/account', { key: unknown, from });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('invalid_api_key');
      expectBudget(refused, 2, 1 - index);
    }

    const valid = secretKey([]);
    const verifyCalls = identity.verifyCalls;
    expectRateLimited(await call(gateway, 'GET', '/v1/account', { key: valid, from }), 2);
    expect(identity.verifyCalls).toBe(verifyCalls);
    // A key this gateway verified before is no guess: it needs no lookup, so no check either.
    expect((await call(gateway, 'GET', '/v1/account', { key: verifiedBefore, from })).status).toBe(200);

    // Another address with the same key is served; a missing key is no failed guess: it counts
    // against the address's public budget, as any request no key vouches for, with its headers.
    expect((await call(gateway, 'GET', '/v1/account', { key: valid })).status).toBe(200);
    const another = newClientAddress();
    for (const remaining of [1, 0]) {
      const missing = await call(gateway, 'GET', '/v1/account', { from: another });
      expect(missing.body.error.code).toBe('missing_api_key');
      expectBudget(missing, 2, remaining);
    }
    expectRateLimited(await call(gateway, 'GET', '/v1/account', { from: another }), 2);
    expect((await call(gateway, 'GET', '/v1/account', { key: valid, from: another })).status).toBe(200);
  });

  it('does not count a revoked key as a failed authentication: a backend rotating its key keeps the budget of its address for the new one', async () => {
    const from = newClientAddress();
    const old = secretKey([]);
    identity.revoke(old);
    // Workers not yet rolled out go on sending the old key, more often than the budget (2) allows.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const refused = await call(gateway, 'GET', '/v1/account', { key: old, from });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toMatchObject({ code: 'invalid_api_key', message: 'This API key has been revoked.' });
      expect(refused.headers.get('ratelimit-limit')).toBeNull();
    }
    expect((await call(gateway, 'GET', '/v1/account', { key: secretKey([]), from })).status).toBe(200);
  });
});

describe('when the limiter cannot reach Redis', () => {
  const uncountedBy = async (target: Gateway) => {
    const sample = /^gateway_rate_limiter_unavailable_total\{bucket="account"\} (\d+)$/m.exec(await target.metrics.metrics());
    return sample ? Number(sample[1]) : 0;
  };
  /** `requests` requests with one key, past its account's budget: each answered 200, without rate-limit headers. */
  const expectAllPassUncounted = async (target: Gateway, requests: number) => {
    const key = secretKey([]);
    for (let index = 0; index < requests; index += 1) {
      const answered = await call(target, 'GET', '/v1/account', { key });
      expect(answered.status).toBe(200);
      expect(answered.headers.get('ratelimit-limit')).toBeNull();
    }
  };

  it('lets requests through uncounted, says so in a metric and in a bounded number of log lines', async () => {
    // Never connected: as a client whose Redis went away, it is not ready.
    const unreachable = createClient({ url: 'redis://127.0.0.1:1' }) as unknown as RedisClient;
    const outage = await startGateway({ ...isolatedRateLimits(redis, budgets), redis: unreachable });
    const uncounted = () => uncountedBy(outage);
    const before = await uncounted();

    const requests = budgets.account.points + 2;
    await expectAllPassUncounted(outage, requests);
    expect((await call(outage, 'GET', '/v1/health')).status).toBe(200);

    expect(await uncounted()).toBe(before + requests);
    const outageLines = outage.logLines.filter((line) => line.includes(OUTAGE_LOG));
    expect(outageLines.length).toBeGreaterThanOrEqual(1);
    expect(outageLines.length).toBeLessThan(requests);
  });

  it('lets requests through uncounted when Redis takes the counts and answers none, instead of holding them until it does', async () => {
    const proxy = await silenceableRedis();
    const silenced = await connectRedis(proxy.url, pino({ level: 'silent' }));
    try {
      const target = await startGateway(isolatedRateLimits(silenced, budgets));
      expect((await call(target, 'GET', '/v1/account', { key: secretKey([]) })).headers.get('ratelimit-remaining')).toBe('2');

      proxy.silence();
      const requests = budgets.account.points + 1;
      await expectAllPassUncounted(target, requests);
      expect(await uncountedBy(target)).toBe(requests);

      proxy.resume();
      expectBudget(await call(target, 'GET', '/v1/account', { key: secretKey([]) }), budgets.account.points, 2);
    } finally {
      await silenced.close();
      await proxy.close();
    }
    // Held until Redis answers, the first silenced request would never finish: fail in seconds, not at the suite's limit.
  }, 15_000);
});
