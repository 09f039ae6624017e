import { request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Registry } from 'prom-client';
import { CHECKOUT_SCOPES, effectiveScopes, hashApiKey, KEY_CACHE_TTL_SECONDS, keyCacheEntry, keyGenerationEntry, SECRET_SCOPES, type CachedKey, type Scope } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { connectCachingRedis, connectRedis, type RedisClient } from '@ticketing/redis';
import { silenceableRedis, waitFor } from '@ticketing/testing';
import { createGatewayApp } from '../src/app';
import { closeGracefully, listen } from '../src/http/http-server';
import { routeTable } from '../src/routes';
import { isImplemented, type KeyedAccess, type Route } from '../src/routes/route';
import { capturingLogger, startBackendDoubles, type BackendDoubles } from './support/backend-doubles';
import { CatalogDouble } from './support/catalog.double';
import { IdentityDouble } from './support/identity.double';
import { isolatedRateLimits } from './support/rate-limits';

const tokenSecret = 'gateway-integration-secret-0123456789';

/** Log lines the gateway wrote, to check what it logs (and that it never logs a key). */
const { logger, lines: logLines } = capturingLogger();
const loggedEntries = () => logLines.map((text) => JSON.parse(text));
/** The access-log line of the request with this id. */
const accessLogLine = (requestId: string | null) => loggedEntries().find((entry) => entry.msg === 'request' && entry.request_id === requestId);

let redis: RedisClient;
/** The gateway's key-cache client; the test writes through `redis`, another connection, as identity does. */
let keyCache: Awaited<ReturnType<typeof connectCachingRedis>>;
let backends: BackendDoubles;
let http: Server;
let baseUrl: string;
/** What the gateway's ops server would expose at /metrics. */
const metricsRegistry = new Registry();
const identity = new IdentityDouble();
const catalog = new CatalogDouble();

beforeAll(async () => {
  redis = await connectRedis('redis://127.0.0.1:6379', logger);
  keyCache = await connectCachingRedis('redis://127.0.0.1:6379', logger, 1_000);
  backends = await startBackendDoubles(tokenSecret, identity, catalog);
  http = await listen(
    createGatewayApp({ redis, keyCacheRedis: keyCache.client, clients: backends.clients, config: { INTERNAL_TOKEN_SECRET: tokenSecret, GRPC_DEADLINE_MS: 5_000, TRUST_PROXY: false, TICKETING_PAGES_URL: 'http://127.0.0.1:1', PAYMENTS_PAGES_URL: 'http://127.0.0.1:1' }, rateLimits: isolatedRateLimits(redis), logger, metricsRegistry }),
    0,
  );
  baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeGracefully(http);
  await backends.stop();
  await redis.close();
  await keyCache.client.close();
});

interface CallOptions {
  key?: string;
  body?: unknown;
  /** Sent as is, for bodies that are not JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Another gateway than the suite's. */
  gateway?: string;
}

async function call(method: string, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${options.gateway ?? baseUrl}${path}`, {
    method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('application/json');
  return { status: response.status, headers: response.headers, body: isJson && text ? JSON.parse(text) : text };
}

/** A call whose headers may repeat a name, sent as given (fetch would join the values into one header). */
async function callRepeatingHeaders(method: string, path: string, headers: Array<[string, string]>, body?: unknown) {
  const url = new URL(path, baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const raw = [['Host', url.host], ...headers, ...(payload === undefined ? [] : [['Content-Type', 'application/json']])].flat();
  return new Promise<{ status: number; body: { error?: Record<string, string> } & Record<string, unknown> }>((resolve, reject) => {
    const sent = request(url, { method, headers: raw }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    sent.on('error', reject).end(payload);
  });
}

const secretKey = (...scopes: string[]) => identity.issueKey({ scopes }).secret;
const allScopesKey = () => secretKey(...SECRET_SCOPES);
const publishableKey = (...scopes: string[]) => identity.issueKey({ kind: 'publishable', scopes }).secret;

function expectEnvelope(response: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body.error).toMatchObject({ code, type: expect.any(String), message: expect.any(String) });
  expect(response.body.error.request_id).toMatch(/^req_/);
  expect(response.body.error.request_id).toBe(response.headers.get('request-id'));
}

describe('authentication', () => {
  it('refuses a request without a key, with a malformed key and with an unknown key', async () => {
    expectEnvelope(await call('GET', '/v1/account'), 401, 'missing_api_key');
    expectEnvelope(await call('GET', '/v1/account', { key: 'sk_test_short' }), 401, 'invalid_api_key');
    expectEnvelope(await call('GET', '/v1/account', { headers: { authorization: 'Basic abc' } }), 401, 'invalid_api_key');

    const unknown = 'sk_test_' + 'u'.repeat(32);
    const verifyCalls = identity.verifyCalls;
    expectEnvelope(await call('GET', '/v1/account', { key: unknown }), 401, 'invalid_api_key');
    expect(identity.verifyCalls).toBe(verifyCalls + 1);
    expect(await redis.get(keyCacheEntry(hashApiKey(unknown)))).toBeNull();
  });

  it('accepts the key as a Bearer token or in x-api-key, and answers the account in the key’s mode from the verified key alone', async () => {
    const issued = identity.issueKey({ scopes: [] });
    const bearer = await call('GET', '/v1/account', { key: issued.secret });
    expect(bearer.status).toBe(200);
    expect(bearer.body).toEqual({
      id: issued.accountId,
      object: 'account',
      livemode: false,
      name: 'Double Account',
      mode: 'test',
      live_mode_activated: false,
      created_at: '2027-01-01T00:00:00.000Z',
    });
    expect((await call('GET', '/v1/account', { headers: { 'x-api-key': issued.secret } })).status).toBe(200);
  });

  it('refuses an HTTP/1.1 request without a Host header, or with two, with the error envelope', async () => {
    const { port } = http.address() as AddressInfo;
    const exchange = (bytes: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
        socket.on('close', () => resolve(answer)).on('error', reject);
        socket.end(bytes);
      });
    for (const [hosts, request] of [
      [0, 'GET /v1/health HTTP/1.1\r\nConnection: close\r\n\r\n'],
      [2, 'GET /v1/health HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n'],
    ] as const) {
      const answer = await exchange(request);
      expect(answer).toMatch(/^HTTP\/1.1 400 Bad Request/);
      const error = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error;
      expect(error).toMatchObject({ code: 'malformed_request', message: `An HTTP/1.1 request carries exactly one Host header; this one carried ${hosts}.`, request_id: expect.stringMatching(/^req_/) });
    }
  });

  it('accepts one key sent in repeated headers, and refuses two different ones', async () => {
    const [first, second] = [identity.issueKey({ scopes: [] }).secret, identity.issueKey({ scopes: [] }).secret];
    expect((await callRepeatingHeaders('GET', '/v1/account', [['x-api-key', first], ['x-api-key', first]])).status).toBe(200);
    expect((await callRepeatingHeaders('GET', '/v1/account', [['Authorization', `Bearer ${first}`], ['authorization', `Bearer ${first}`]])).status).toBe(200);
    const twoKeys = await callRepeatingHeaders('GET', '/v1/account', [['x-api-key', first], ['x-api-key', second]]);
    expect(twoKeys).toMatchObject({ status: 401, body: { error: { code: 'invalid_api_key', message: expect.stringContaining('Two different API keys') } } });
  });

  it('refuses a publishable key on a secret route and a secret key on checkout, with 401', async () => {
    expectEnvelope(await call('GET', '/v1/account', { key: publishableKey(...CHECKOUT_SCOPES) }), 401, 'publishable_key_not_allowed');
    expectEnvelope(await call('POST', '/v1/checkout/sessions', { key: allScopesKey(), body: {} }), 401, 'secret_key_not_allowed');
  });

  it('answers 403 naming the missing scope', async () => {
    const response = await call('POST', '/v1/events', { key: secretKey('events:read'), body: { name: 'x', starts_at: '2027-01-01T00:00:00Z' } });
    expectEnvelope(response, 403, 'forbidden');
    expect(response.body.error).toMatchObject({ type: 'authorization_error', message: 'Missing required scope: events:write' });
  });

  it('caches a verified key in Redis and in memory, and refuses it on the very next request once identity writes the revoked tombstone', async () => {
    const issued = identity.issueKey({ scopes: ['events:read'] });
    const entry = keyCacheEntry(hashApiKey(issued.secret));
    const verifyCalls = identity.verifyCalls;

    expect((await call('GET', '/v1/events', { key: issued.secret })).status).toBe(200);
    // The fill invalidated what this client had read (nothing); the next request reads the entry into memory.
    expect((await call('GET', '/v1/events', { key: issued.secret })).status).toBe(200);
    const hits = keyCache.cache.stats().hitCount;
    expect((await call('GET', '/v1/events', { key: issued.secret })).status).toBe(200);
    expect((await call('GET', '/v1/events', { key: issued.secret })).status).toBe(200);
    // Answered from this process's memory: neither identity nor Redis was asked again.
    expect(keyCache.cache.stats().hitCount).toBe(hits + 2);
    expect(identity.verifyCalls).toBe(verifyCalls + 1);
    const cached: CachedKey = JSON.parse((await redis.get(entry))!);
    expect(cached).toMatchObject({ key_id: issued.principal.key_id, account_id: issued.accountId, revoked: false });
    expect(await redis.ttl(entry)).toBeGreaterThan(0);

    await redis.set(entry, JSON.stringify({ ...cached, revoked: true }));
    const refused = await call('GET', '/v1/events', { key: issued.secret });
    expectEnvelope(refused, 401, 'invalid_api_key');
    expect(refused.body.error.message).toMatch(/revoked/);
  });

  it('does not cache what identity read of an account before a change that dropped the key’s entry during the lookup', async () => {
    const issued = identity.issueKey({ scopes: [] });
    const keyHash = hashApiKey(issued.secret);
    identity.afterVerifyRead = async () => {
      identity.afterVerifyRead = null;
      identity.renameAccount(issued.accountId, 'Renamed Account');
      // What identity's KeyCache.forgetAccountKeys does once the change has committed.
      await redis.multi().incr(keyGenerationEntry(keyHash)).expire(keyGenerationEntry(keyHash), KEY_CACHE_TTL_SECONDS).del(keyCacheEntry(keyHash)).exec();
    };
    expect((await call('GET', '/v1/account', { key: issued.secret })).body.name).toBe('Double Account');
    expect(await redis.get(keyCacheEntry(keyHash))).toBeNull();
    expect((await call('GET', '/v1/account', { key: issued.secret })).body.name).toBe('Renamed Account');
    expect(JSON.parse((await redis.get(keyCacheEntry(keyHash)))!).account.name).toBe('Renamed Account');
  });

  it('honours a bare tombstone, and a key identity reports as revoked', async () => {
    const tombstoned = identity.issueKey({ scopes: ['events:read'] });
    await redis.set(keyCacheEntry(hashApiKey(tombstoned.secret)), JSON.stringify({ revoked: true }));
    expectEnvelope(await call('GET', '/v1/events', { key: tombstoned.secret }), 401, 'invalid_api_key');

    const caller = identity.issueKey({ scopes: ['keys:manage'] });
    const revoked = identity.issueKey({ scopes: ['events:read'], accountId: caller.accountId });
    expect((await call('DELETE', `/v1/account/keys/${revoked.principal.prefix}`, { key: caller.secret })).status).toBe(200);
    const refused = await call('GET', '/v1/events', { key: revoked.secret });
    expectEnvelope(refused, 401, 'invalid_api_key');
    expect(refused.body.error.message).toMatch(/revoked/);
  });

  it('logs a request whose client went away before any answer as 499, never as answered', async () => {
    const issued = identity.issueKey({ scopes: ['events:write'] });
    const { port } = new URL(baseUrl);
    const received = new Promise((resolve) => http.once('request', resolve));
    const socket = connect(Number(port), '127.0.0.1');
    // A body announced longer than what is sent: the gateway is still reading it when the client leaves.
    socket.write(`POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${issued.secret}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name"`);
    await received;
    socket.destroy();
    const logged = () => loggedEntries().find((entry) => entry.aborted && entry.method === 'POST' && entry.path === '/v1/events');
    expect(await waitFor('the abandoned request logged', async () => logged(), { timeoutMs: 5_000 })).toMatchObject({
      msg: 'request',
      method: 'POST',
      path: '/v1/events',
      status: 499,
      aborted: true,
    });
  });

  it('never logs a key, only its prefix', async () => {
    const issued = identity.issueKey({ scopes: ['events:read'] });
    await call('GET', '/v1/events', { key: issued.secret });
    const line = loggedEntries().find((entry) => entry.key_prefix === issued.principal.prefix);
    expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/v1/events', status: 200, account_id: issued.accountId, mode: 'test' });
    expect(logLines.join('\n')).not.toContain(issued.secret);
  });

  it('refuses a whole key pasted where a key prefix belongs, repeating it neither in the answer nor in the log', async () => {
    const caller = identity.issueKey({ scopes: ['keys:manage'] });
    const pasted = identity.issueKey({ scopes: ['events:read'] });
    const response = await call('DELETE', `/v1/account/keys/${pasted.secret}`, { key: caller.secret });
    expectEnvelope(response, 400, 'parameter_invalid');
    expect(response.body.error).toMatchObject({ param: 'prefix', message: expect.stringContaining('must not be a whole API key') });
    expect(JSON.stringify(response.body)).not.toContain(pasted.secret);
    const line = accessLogLine(response.body.error.request_id);
    expect(line).toMatchObject({ method: 'DELETE', path: `/v1/account/keys/${pasted.principal.prefix}…`, status: 400 });

    // Nor when it is percent-encoded, glued to other text, in a path no operation takes (405, 404), or named as a query parameter.
    const encoded = `%73${pasted.secret.slice(1).replaceAll('_', '%5F')}`;
    const answers = [
      await call('DELETE', `/v1/account/keys/${encoded}`, { key: caller.secret }),
      await call('DELETE', `/v1/account/keys/x${pasted.secret}`, { key: caller.secret }),
      await call('POST', `/v1/account/keys/${pasted.secret}`, { key: caller.secret }),
      await call('GET', `/v1/nowhere/${pasted.secret}`, { key: caller.secret }),
      await call('GET', `/v1/account/keys?${pasted.secret}=1`, { key: caller.secret }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 405, 404, 400]);
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(pasted.secret.slice(8 + 12));
    expect(logLines.join('\n')).not.toContain(pasted.secret.slice(8 + 12));
  });

  it('logs no signed token that a path carries outside the ticket pages', async () => {
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0a3Rfc3RyYXkifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
    const response = await call('GET', `//d/${token}`);
    const logged = accessLogLine(response.headers.get('request-id'));
    expect(logged).toMatchObject({ path: '//d/{token}' });
    expect(logLines.join('\n')).not.toContain(token);
  });

  it('logs no email address typed into a path, as typed or percent-encoded', async () => {
    const caller = identity.issueKey({ scopes: ['customers:write'] });
    const answers = [
      await call('GET', '/v1/customers/ann.lee@example.com', { key: caller.secret }),
      await call('GET', '/v1/nowhere/ann.lee%40example.com/x', { key: caller.secret }),
    ];
    expect(answers.map((answer) => accessLogLine(answer.headers.get('request-id'))?.path)).toEqual(['/v1/customers/{email}', '/v1/nowhere/{email}/x']);
    expect(logLines.join('\n')).not.toMatch(/ann\.lee/);
  });
});

/** A URL for the route with made-up ids; whatever the handler then says, it is past the key checks. */
const urlFor = (route: Route) => route.path.replace(/\{[^}]+\}/g, 'matrix_id');
const bodyFor = (route: Route) => (['post', 'put', 'patch'].includes(route.method) ? {} : undefined);
const keyedRoutes = routeTable.filter((route): route is Route & { access: KeyedAccess } => route.access.kind !== 'public');

describe.each(keyedRoutes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))('scope matrix: %s', (_name, route) => {
  const { access } = route;
  const request = (key: string) => call(route.method.toUpperCase(), urlFor(route), { key, body: bodyFor(route) });
  /** Every scope of the key's kind except those that grant the route's scope. */
  const scopesWithout = (scope: Scope) =>
    (access.kind === 'publishable' ? CHECKOUT_SCOPES : SECRET_SCOPES).filter((candidate) => !effectiveScopes(access.kind, [candidate]).has(scope));
  const keyOfKind = (scopes: readonly string[]) => (access.kind === 'publishable' ? publishableKey(...scopes) : secretKey(...scopes));

  if (access.scope !== null) {
    const scope = access.scope;
    it(`refuses a key without ${scope} with 403 naming it`, async () => {
      const response = await request(keyOfKind(scopesWithout(scope)));
      expectEnvelope(response, 403, 'forbidden');
      expect(response.body.error.message).toBe(`Missing required scope: ${scope}`);
    });
  }

  it(`lets a key with only ${access.scope ?? 'no scope'} past the key checks`, async () => {
    const response = await request(keyOfKind(access.scope === null ? [] : [access.scope]));
    if (!isImplemented(route)) {
      // The stage right after the key checks.
      expectEnvelope(response, 501, 'not_implemented');
      return;
    }
    expect([401, 403]).not.toContain(response.status);
    // Whatever validation or the service then says, it says the same to a key holding every scope.
    const everyScope = await request(keyOfKind(access.kind === 'publishable' ? CHECKOUT_SCOPES : SECRET_SCOPES));
    expect({ status: response.status, code: response.body.error?.code }).toEqual({ status: everyScope.status, code: everyScope.body.error?.code });
  });

  if (access.kind === 'secret') {
    it('refuses a publishable key with 401', async () => {
      expectEnvelope(await request(publishableKey(...CHECKOUT_SCOPES)), 401, 'publishable_key_not_allowed');
    });
  } else {
    it('refuses a secret key with 401', async () => {
      expectEnvelope(await request(allScopesKey()), 401, 'secret_key_not_allowed');
    });
  }
});

describe('the error envelope', () => {
  it('answers an unknown route with 404 naming method and path', async () => {
    const response = await call('DELETE', '/v1/nothing-here');
    expectEnvelope(response, 404, 'route_not_found');
    expect(response.body.error.message).toContain('DELETE /v1/nothing-here');
    expectEnvelope(await call('GET', '/v1/events/%E0%A4%A'), 400, 'parameter_invalid');
  });

  it('matches paths in the letter case the document spells them', async () => {
    const key = secretKey();
    for (const path of ['/v1/account', '/v1/account/']) expect((await call('GET', path, { key })).status).toBe(200);
    for (const path of ['/V1/ACCOUNT', '/v1/Account']) expectEnvelope(await call('GET', path, { key }), 404, 'route_not_found');
  });

  it('takes a static path segment before a parameter: /v1/events/deliveries is the deliveries list, not the event "deliveries"', async () => {
    const response = await call('GET', '/v1/events/deliveries', { key: secretKey('events:read') });
    expectEnvelope(response, 403, 'forbidden');
    expect(response.body.error.message).toContain('webhooks:manage');
  });

  it('answers HEAD on an operation that takes GET as GET answers, without the body', async () => {
    const key = secretKey();
    const [get, head] = [await call('GET', '/v1/account', { key }), await call('HEAD', '/v1/account', { key })];
    expect({ status: head.status, type: head.headers.get('content-type'), body: head.body }).toEqual({ status: get.status, type: get.headers.get('content-type'), body: '' });
    expect((await call('HEAD', '/v1/account')).status).toBe(401);
  });

  it('answers OPTIONS on an operation path with 204 and the methods it takes, no body; on any other path with 404', async () => {
    for (const [path, allow] of [
      ['/v1/events', 'GET, HEAD, POST, OPTIONS'],
      ['/v1/events/evt_1', 'GET, HEAD, PATCH, OPTIONS'],
      ['/v1/account/keys/sk_test_abc', 'DELETE, OPTIONS'],
    ]) {
      const response = await call('OPTIONS', path!);
      expect({ path, status: response.status, allow: response.headers.get('allow'), body: response.body }).toEqual({ path, status: 204, allow, body: '' });
    }
    expectEnvelope(await call('OPTIONS', '/v1/nothing-here'), 404, 'route_not_found');
  });

  it('answers a method an operation path does not take with 405 and the methods it does', async () => {
    const key = secretKey('events:write');
    for (const [method, path, allow] of [
      ['PUT', '/v1/events', 'GET, HEAD, POST, OPTIONS'],
      ['DELETE', '/v1/events/evt_1', 'GET, HEAD, PATCH, OPTIONS'],
      ['POST', '/v1/account', 'GET, HEAD, OPTIONS'],
    ]) {
      const response = await call(method!, path!, { key });
      expectEnvelope(response, 405, 'method_not_allowed');
      expect({ path, allow: response.headers.get('allow'), message: response.body.error.message }).toEqual({ path, allow, message: expect.stringContaining(`${method} is not allowed on ${path}`) });
    }
  });

  it('answers malformed JSON, a body over 100 kB and a body that is not JSON', async () => {
    const key = secretKey('events:write');
    const malformed = await call('POST', '/v1/events', { key, rawBody: '{"name":' });
    expectEnvelope(malformed, 400, 'invalid_json');
    expect(malformed.body.error.message).toBe('The request body is not valid JSON.');
    // Bytes that are not UTF-8 (a lone surrogate's, then a bare 0xFF) are refused, not decoded to U+FFFD.
    for (const bytes of [[0xed, 0xa0, 0x80], [0xff]]) {
      const body = Buffer.concat([Buffer.from('{"name":"x'), Buffer.from(bytes), Buffer.from('y","starts_at":"2027-01-01T00:00:00Z"}')]);
      const response = await fetch(`${baseUrl}/v1/events`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
      const answer = { status: response.status, error: ((await response.json()) as { error: { code: string; message: string } }).error };
      expect(answer).toMatchObject({ status: 400, error: { code: 'invalid_json', message: 'The request body is not valid UTF-8; send JSON encoded in UTF-8.' } });
    }
    // Valid JSON, but not the object every operation takes: said as such.
    for (const bare of ['null', '"x"', '12', '[]', '[{"name":"x"}]']) {
      const refused = await call('POST', '/v1/events', { key, rawBody: bare });
      expectEnvelope(refused, 400, 'invalid_json');
      expect(refused.body.error.message).toBe('The request body must be a JSON object.');
    }
    const tooLarge = await call('POST', '/v1/events', { key, body: { name: 'x'.repeat(110_000), starts_at: '2027-01-01T00:00:00Z' } });
    expectEnvelope(tooLarge, 413, 'body_too_large');
    expect(tooLarge.body.error.message).toBe('The request body is larger than 100KB, the most this operation takes.');
    expectEnvelope(await call('POST', '/v1/events', { key, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
  });

  it('says in its own words why it cannot read a body compressed wrongly or in another charset', async () => {
    const key = secretKey('events:write');
    const calls = catalog.createCalls;
    const body = JSON.stringify({ name: 'Packed', starts_at: '2027-01-01T00:00:00Z' });
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const corrupt = await call('POST', '/v1/events', { key, rawBody: body, headers: { 'content-encoding': encoding } });
      expectEnvelope(corrupt, 400, 'invalid_json');
      expect(corrupt.body.error.message).toBe(`The request body could not be decompressed as its Content-Encoding, ${encoding}, says; send it so compressed, or uncompressed without that header.`);
    }
    const compress = await call('POST', '/v1/events', { key, rawBody: body, headers: { 'content-encoding': 'compress' } });
    expectEnvelope(compress, 415, 'unsupported_media_type');
    expect(compress.body.error.message).toBe('Content-Encoding compress is not one the API reads; send the body uncompressed, or compressed with gzip, deflate or br.');
    const latin1 = await call('POST', '/v1/events', { key, rawBody: body, headers: { 'content-type': 'application/json; charset=latin1' } });
    expectEnvelope(latin1, 415, 'unsupported_media_type');
    expect(latin1.body.error.message).toBe("The body's charset, latin1, is not one the API reads; send JSON encoded in UTF-8.");
    expect(catalog.createCalls).toBe(calls);
    // Compressed as it says, it is read.
    expect((await fetch(`${baseUrl}/v1/events`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(body) })).status).toBe(200);
  });

  it('reads a POST without a body, or with an empty one and no content type, as {}', async () => {
    const key = secretKey('events:write');
    const noBody = await call('POST', '/v1/events', { key });
    expectEnvelope(noBody, 400, 'parameter_missing');
    expect(noBody.body.error.param).toBe('name');
    expectEnvelope(await call('POST', '/v1/events', { key, rawBody: '', headers: { 'content-type': '' } }), 400, 'parameter_missing');
  });

  it('names the parameter at fault', async () => {
    const key = secretKey('events:write', 'keys:manage');
    const missing = await call('POST', '/v1/events', { key, body: { name: 'No date' } });
    expectEnvelope(missing, 400, 'parameter_missing');
    expect(missing.body.error.param).toBe('starts_at');
    const unknown = await call('POST', '/v1/events', { key, body: { name: 'x', starts_at: '2027-01-01T00:00:00Z', venu: 'y' } });
    expectEnvelope(unknown, 400, 'parameter_unknown');
    expect(unknown.body.error.param).toBe('venu');
    const badScope = await call('POST', '/v1/account/keys', { key, body: { label: 'x', scopes: ['events:read', 'events:sing'] } });
    expectEnvelope(badScope, 400, 'parameter_invalid');
    expect(badScope.body.error.param).toBe('scopes[1]');
    const badLimit = await call('GET', '/v1/account/keys?limit=many', { key });
    expectEnvelope(badLimit, 400, 'parameter_invalid');
    expect(badLimit.body.error.param).toBe('limit');
    // An id past what any id can be, in the path or as a cursor: said in the API's words.
    const longId = 'evt_' + 'x'.repeat(300);
    for (const path of [`/v1/events/${longId}`, `/v1/account/keys?starting_after=${longId}`]) {
      const tooLong = await call('GET', path, { key: secretKey('events:read', 'keys:manage') });
      expectEnvelope(tooLong, 400, 'parameter_invalid');
      expect(tooLong.body.error.message).toMatch(/must be an id of at most 255 characters\.?$/);
    }
  });

  it('answers a failing service with 500 and logs it with the request id, without details', async () => {
    const response = await call('GET', `/v1/events/${CatalogDouble.EXPLODING_ID}`, { key: secretKey('events:read') });
    expectEnvelope(response, 500, 'internal_error');
    expect(response.body.error.type).toBe('api_error');
    expect(JSON.stringify(response.body)).not.toContain('exploded');
  });

  it('answers an exception inside the gateway with a generic 500 and logs it with the request id', async () => {
    const response = await call('POST', '/v1/account/keys', { key: secretKey('keys:manage'), body: { label: IdentityDouble.BROKEN_LABEL, scopes: [] } });
    expectEnvelope(response, 500, 'internal_error');
    expect(JSON.stringify(response.body)).not.toMatch(/stack|identity answered/);
    const logged = loggedEntries().find((entry) => entry.msg === 'unhandled error' && entry.request_id === response.body.error.request_id);
    expect(logged?.err.message).toContain('without the key record');
  });
});

describe('operations', () => {
  it('mints, lists (clamped) and revokes keys', async () => {
    const caller = identity.issueKey({ scopes: ['keys:manage', 'events:read'] });
    const minted = await call('POST', '/v1/account/keys', { key: caller.secret, body: { label: 'reader', scopes: ['events:read'] } });
    expect(minted.status).toBe(200);
    expect(minted.body).toMatchObject({ object: 'api_key', label: 'reader', scopes: ['events:read'], mode: 'test', kind: 'secret', revoked_at: null, livemode: false });
    expect(minted.body.secret).toMatch(/^sk_test_/);

    const listed = await call('GET', '/v1/account/keys?limit=0', { key: caller.secret });
    expect(listed.body).toEqual({ object: 'list', data: [expect.objectContaining({ id: minted.body.id })], has_more: true });
    expect(listed.body.data[0]).not.toHaveProperty('secret');

    const revoked = await call('DELETE', `/v1/account/keys/${minted.body.prefix}`, { key: caller.secret });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
  });

  it('creates, reads, lists and updates events in the key’s tenant, paging with a clamped limit', async () => {
    const key = secretKey('events:read', 'events:write');
    const created = await call('POST', '/v1/events', { key, body: { name: 'Harbour Lights', starts_at: '2027-07-01T22:00:00+02:00' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      object: 'event',
      livemode: false,
      name: 'Harbour Lights',
      starts_at: '2027-07-01T20:00:00.000Z',
      venue: null,
      status: 'draft',
      tiers: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await call('GET', `/v1/events/${created.body.id}`, { key })).body).toEqual(created.body);
    expect((await call('GET', `/v1/events/${created.body.id}`, { key: secretKey('events:read') })).status).toBe(404);

    const listed = await call('GET', '/v1/events?limit=1000&starting_after=evt_0', { key });
    expect(listed.body).toEqual({ object: 'list', data: [created.body], has_more: false });
    expect(catalog.lastPage).toEqual({ limit: 100, starting_after: 'evt_0' });

    const updated = await call('PATCH', `/v1/events/${created.body.id}`, { key, body: { name: 'Late Show' } });
    expect(updated.body).toMatchObject({ id: created.body.id, name: 'Late Show', starts_at: '2027-07-01T20:00:00.000Z' });
    expectEnvelope(await call('PATCH', `/v1/events/${created.body.id}`, { key, body: {} }), 400, 'parameter_missing');
  });

  it('answers 501 for an operation not built yet, only once the key and scope checks pass', async () => {
    expectEnvelope(await call('GET', '/v1/reports/sales', { key: secretKey('events:read') }), 403, 'forbidden');
    const response = await call('GET', '/v1/reports/sales', { key: secretKey('reports:read') });
    expectEnvelope(response, 501, 'not_implemented');
    expect(response.body.error.message).toBe('This operation is not available yet.');
  });

  it('forwards ticket pages to ticketing and sandbox pages to payments, and answers a page saying so when the service is unreachable', async () => {
    // A link mangled into invalid percent-encoding goes to ticketing too, whose page says it is not valid.
    for (const path of ['/d/some-token', '/d/%ff%fe', '/sandbox/authenticate/ch_01JD3WJ6K8M0P2R4T6V8X0Z2B4']) {
      const response = await call('GET', path);
      expect({ path, status: response.status }).toEqual({ path, status: 503 });
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.body).toContain('This page is not available right now');
    }
  });

  it('logs a ticket page request without its token, which opens the ticket for anyone who reads it', async () => {
    const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ0a3RfbG9nZ2VkIn0.c2lnbmF0dXJl';
    const response = await call('GET', `/d/${token}`);
    const logged = accessLogLine(response.headers.get('request-id'));
    expect(logged).toMatchObject({ method: 'GET', path: '/d/{token}', status: 503 });
    expect(logLines.join('\n')).not.toContain(token);
    // Counted under the pages' template too, not with the requests no route served.
    expect(await metricsRegistry.metrics()).toContain('gateway_http_requests_total{method="GET",route="/d/{token}",status="503"}');
  });
});

describe('idempotency', () => {
  const newEvent = { name: 'Once Only', starts_at: '2027-09-01T19:00:00Z' };
  const post = (key: string, idempotencyKey: string, body: unknown = newEvent) =>
    call('POST', '/v1/events', { key, body, headers: { 'Idempotency-Key': idempotencyKey } });
  const freshKey = () => `idem-${Math.random().toString(36).slice(2)}`;

  it('replays the first response to a repeat, without running the request again', async () => {
    const key = secretKey('events:write');
    const idempotencyKey = freshKey();
    const calls = catalog.createCalls;
    const first = await post(key, idempotencyKey);
    const second = await post(key, idempotencyKey, { starts_at: newEvent.starts_at, name: newEvent.name });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(catalog.createCalls).toBe(calls + 1);
  });

  it('keeps keys apart per account: another account may use the same Idempotency-Key', async () => {
    const idempotencyKey = freshKey();
    const first = await post(secretKey('events:write'), idempotencyKey);
    const other = await post(secretKey('events:write'), idempotencyKey);
    expect(other.body.id).not.toBe(first.body.id);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps keys apart per mode: the same account’s live key may use a test key’s Idempotency-Key', async () => {
    const idempotencyKey = freshKey();
    const testKey = identity.issueKey({ scopes: ['events:write'] });
    const liveKey = identity.issueKey({ scopes: ['events:write'], mode: 'live', accountId: testKey.accountId });
    const first = await post(testKey.secret, idempotencyKey);
    const live = await post(liveKey.secret, idempotencyKey);
    expect(live.status).toBe(200);
    expect(live.body.id).not.toBe(first.body.id);
    expect(live.body.livemode).toBe(true);
    expect(live.headers.get('idempotent-replayed')).toBeNull();
    expect((await post(testKey.secret, idempotencyKey)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses the same key with another request with 409 idempotency_key_reused', async () => {
    const key = secretKey('events:write');
    const idempotencyKey = freshKey();
    await post(key, idempotencyKey);
    const reused = await post(key, idempotencyKey, { ...newEvent, name: 'Something else' });
    expectEnvelope(reused, 409, 'idempotency_key_reused');
    expect(reused.body.error.type).toBe('idempotency_error');
    // Retrying cannot resolve it: no Retry-After.
    expect(reused.headers.get('retry-after')).toBeNull();
  });

  it('refuses a repeat while the first request still runs with 409 idempotency_key_in_use, telling it when to retry', async () => {
    const key = secretKey('events:write');
    const idempotencyKey = freshKey();
    const gate = catalog.holdNextCreate();
    const first = post(key, idempotencyKey);
    await gate.entered;
    const repeat = await post(key, idempotencyKey);
    expectEnvelope(repeat, 409, 'idempotency_key_in_use');
    expect(repeat.headers.get('retry-after')).toBe('1');
    // Were this gateway to die now, its lock would hold retries off for twice the call's deadline (5 s here), not a minute.
    const [lock] = await redis.keys(`idempotency-lock:*:${idempotencyKey}`);
    expect(await redis.ttl(lock!)).toBeGreaterThan(0);
    expect(await redis.ttl(lock!)).toBeLessThanOrEqual(10);
    gate.release();
    expect((await first).status).toBe(200);
    expect((await post(key, idempotencyKey)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('stores nothing for a request that fails validation or the key checks', async () => {
    const key = secretKey('events:write');
    const idempotencyKey = freshKey();
    expectEnvelope(await post(key, idempotencyKey, { name: 'No date' }), 400, 'parameter_missing');
    expectEnvelope(await post(secretKey('events:read'), idempotencyKey), 403, 'forbidden');
    const ran = await post(key, idempotencyKey);
    expect(ran.status).toBe(200);
    expect(ran.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps the key of a 5xx as outcome unknown: the same request goes to the service again, another is refused', async () => {
    const key = secretKey('events:write');
    const idempotencyKey = freshKey();
    catalog.failNextCreate = true;
    expectEnvelope(await post(key, idempotencyKey), 500, 'internal_error');
    expectEnvelope(await post(key, idempotencyKey, { ...newEvent, name: 'Something else' }), 409, 'idempotency_key_reused');
    const calls = catalog.createCalls;
    const retried = await post(key, idempotencyKey);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(catalog.createCalls).toBe(calls + 1);
    expect((await post(key, idempotencyKey)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('replays an error under the retry’s own request id, naming the first in Original-Request', async () => {
    const key = secretKey('events:write');
    const idempotencyKey = freshKey();
    catalog.refuseNextCreate = new ApiError('parameter_invalid', 'starts_at is in the past.', { param: 'starts_at' });
    const first = await post(key, idempotencyKey);
    expectEnvelope(first, 400, 'parameter_invalid');
    const replayed = await post(key, idempotencyKey);
    expectEnvelope(replayed, 400, 'parameter_invalid');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.error.request_id).not.toBe(first.body.error.request_id);
    expect(replayed.headers.get('original-request')).toBe(first.body.error.request_id);
    expect({ ...replayed.body.error, request_id: undefined }).toEqual({ ...first.body.error, request_id: undefined });
  });

  it('refuses two different Idempotency-Keys in repeated headers, which Node would join into a third, and storing nothing under any', async () => {
    const key = secretKey('events:write');
    const [first, second] = [freshKey(), freshKey()];
    const calls = catalog.createCalls;
    const twoKeys = await callRepeatingHeaders('POST', '/v1/events', [['Authorization', `Bearer ${key}`], ['Idempotency-Key', first], ['Idempotency-Key', second]], newEvent);
    expect(twoKeys).toMatchObject({ status: 400, body: { error: { code: 'parameter_invalid', param: 'Idempotency-Key', message: expect.stringContaining('Send one Idempotency-Key') } } });
    expect(catalog.createCalls).toBe(calls);
    // The same key repeated is that key: a retry naming it once replays the first answer.
    const repeated = await callRepeatingHeaders('POST', '/v1/events', [['Authorization', `Bearer ${key}`], ['Idempotency-Key', first], ['Idempotency-Key', first]], newEvent);
    expect(repeated.status).toBe(200);
    const retry = await post(key, first);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(repeated.body);
    expect(catalog.createCalls).toBe(calls + 1);
  });

  it('refuses an Idempotency-Key longer than 255 characters', async () => {
    const response = await post(secretKey('events:write'), 'k'.repeat(256));
    expectEnvelope(response, 400, 'parameter_invalid');
    expect(response.body.error.param).toBe('Idempotency-Key');
  });

  it('refuses an Idempotency-Key with a character gRPC metadata cannot carry, and stores nothing under it', async () => {
    const key = secretKey('events:write');
    for (const idempotencyKey of [`idem-é-${freshKey()}`, `idem\t${freshKey()}`]) {
      const response = await post(key, idempotencyKey);
      expectEnvelope(response, 400, 'parameter_invalid');
      expect(response.body.error).toMatchObject({ param: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters, such as a UUID.' });
    }
    expect(await post(key, 'idem key with spaces ' + freshKey())).toMatchObject({ status: 200 });
  });
});

/**
 * Another gateway whose own Redis connections (key cache, Idempotency-Keys) go to `redisUrl`, a
 * proxy a test can silence or close; its rate limits count in the real Redis.
 */
async function gatewayThrough(redisUrl: string) {
  // As main.ts connects: in the background, so a Redis that is down from the start holds nothing up.
  const store = await connectRedis(redisUrl, logger, { inBackground: true });
  const keyCache = await connectCachingRedis(redisUrl, logger, 1_000, { inBackground: true });
  const config = { INTERNAL_TOKEN_SECRET: tokenSecret, GRPC_DEADLINE_MS: 5_000, TRUST_PROXY: false, TICKETING_PAGES_URL: 'http://127.0.0.1:1', PAYMENTS_PAGES_URL: 'http://127.0.0.1:1' };
  const server = await listen(
    createGatewayApp({ redis: store, keyCacheRedis: keyCache.client, clients: backends.clients, config, rateLimits: isolatedRateLimits(redis), logger, metricsRegistry: new Registry() }),
    0,
  );
  return {
    gateway: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keyCache,
    connected: () => waitFor('the gateway to reach Redis', async () => (store.isReady && keyCache.client.isReady ? true : undefined)),
    stop: async () => {
      await closeGracefully(server);
      // Closing would wait for a Redis that may never answer again.
      store.destroy();
      keyCache.client.destroy();
    },
  };
}

describe('when Redis takes commands and answers none', () => {
  it('answers 503 service_unavailable where a request needs Redis (a key not seen before, an Idempotency-Key), instead of holding it', async () => {
    const proxy = await silenceableRedis();
    const { gateway, connected, stop } = await gatewayThrough(proxy.url);
    try {
      await connected();
      const seen = secretKey('events:write');
      // The first request fills the key's entry, the second reads it into this process's cache.
      for (const _ of [1, 2]) expect((await call('GET', '/v1/account', { key: seen, gateway })).status).toBe(200);

      proxy.silence();
      const unseen = await call('GET', '/v1/account', { key: secretKey(), gateway });
      expectEnvelope(unseen, 503, 'service_unavailable');
      expect(unseen.headers.get('retry-after')).toBe('1');
      // A key this gateway has seen is answered from its own memory.
      expect((await call('GET', '/v1/account', { key: seen, gateway })).status).toBe(200);
      const idempotent = { key: seen, gateway, body: { name: 'Held', starts_at: '2027-09-01T19:00:00Z' }, headers: { 'Idempotency-Key': 'silenced' } };
      const calls = catalog.createCalls;
      expectEnvelope(await call('POST', '/v1/events', idempotent), 503, 'service_unavailable');
      expect(catalog.createCalls).toBe(calls);

      proxy.resume();
      // Redis did take the claim it never answered: the key stays held until its claim lapses, and nothing ran.
      expectEnvelope(await call('POST', '/v1/events', idempotent), 409, 'idempotency_key_in_use');
      expect((await call('POST', '/v1/events', { ...idempotent, headers: { 'Idempotency-Key': 'after-silence' } })).status).toBe(200);
    } finally {
      proxy.resume();
      await stop();
      await proxy.close();
    }
    // Held until Redis answers, the first silenced request would never finish: fail in seconds.
  }, 40_000);
});

describe('when Redis is down', () => {
  it('verifies every key with identity, so keys seen and unseen are served and a key revoked meanwhile is refused', async () => {
    const proxy = await silenceableRedis();
    const { gateway, keyCache: downKeyCache, connected, stop } = await gatewayThrough(proxy.url);
    try {
      await connected();
      const seen = secretKey('events:write');
      for (const _ of [1, 2]) expect((await call('GET', '/v1/account', { key: seen, gateway })).status).toBe(200);

      await proxy.close();
      await waitFor('the key cache to lose Redis', async () => (downKeyCache.client.isReady ? undefined : true));
      expect((await call('GET', '/v1/account', { key: seen, gateway })).status).toBe(200);
      expect((await call('GET', '/v1/account', { key: secretKey(), gateway })).status).toBe(200);
      identity.revoke(seen);
      expectEnvelope(await call('GET', '/v1/account', { key: seen, gateway }), 401, 'invalid_api_key');
    } finally {
      await stop();
    }
  }, 40_000);

  it('starts and serves when Redis is down from the start', async () => {
    const proxy = await silenceableRedis();
    await proxy.close();
    const { gateway, stop } = await gatewayThrough(proxy.url);
    try {
      expect((await call('GET', '/v1/account', { key: secretKey(), gateway })).status).toBe(200);
      expect((await call('GET', '/v1/health', { gateway })).status).toBe(200);
    } finally {
      await stop();
    }
  });
});

describe('public and operational endpoints', () => {
  it('serves health, the OpenAPI document and the explorer without a key', async () => {
    expect((await call('GET', '/v1/health')).body).toMatchObject({ object: 'health', status: 'ok', uptime_seconds: expect.any(Number) });
    const document = await call('GET', '/v1/openapi.json');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toBe('3.1.0');
    expect(Object.keys(document.body.paths)).toEqual(expect.arrayContaining(['/v1/events', '/v1/account/keys', '/v1/events/deliveries', '/v1/checkout/sessions']));
    for (const path of ['/v1/docs', '/v1/docs/']) {
      // Answered at once, not redirected; the page's relative links resolve under /v1/docs/ either way.
      const docs = await fetch(`${baseUrl}${path}`, { redirect: 'manual' });
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('<base href="/v1/docs/">');
    }
    expect((await call('GET', '/v1/docs/swagger-ui-bundle.js')).status).toBe(200);
    expect((await call('GET', '/v1/docs/swagger-ui-init.js')).body).toContain('listEvents');
  });

  it('keeps probes and metrics off the public surface: they are on the ops port', async () => {
    for (const path of ['/metrics', '/readyz', '/healthz']) expectEnvelope(await call('GET', path), 404, 'route_not_found');
  });

  it('counts requests by route template in the registry the ops server exposes', async () => {
    await call('GET', '/v1/health');
    const metrics = await waitFor('the health request to be counted', async () => {
      const text = await metricsRegistry.metrics();
      return text.includes('gateway_http_requests_total{method="GET",route="/v1/health",status="200"}') ? text : undefined;
    });
    expect(metrics).toContain('gateway_http_request_duration_seconds_bucket');
  });
});
