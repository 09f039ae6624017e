import { waitFor } from '@ticketing/testing';
import { servicePorts } from '../tools/system/services';
import { as, call, createAccount, type ApiResponse } from './support/api';
import { E2E_PORT_OFFSET, gatewayUrl } from './support/system';

/** A body that is not JSON, sent with a valid key: the key checks come first (decision 0010). */
async function postMalformedJson(key: string): Promise<ApiResponse> {
  const response = await fetch(`${gatewayUrl}/v1/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: '{"name":' });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('public endpoints and the error envelope', () => {
  it('serves health, the OpenAPI document and the docs explorer without a key', async () => {
    expect((await call('GET', '/v1/health')).status).toBe(200);
    const openapi = await call('GET', '/v1/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/v1/events', '/v1/account/keys', '/v1/events/deliveries']));
    const docs = await fetch(`${gatewayUrl}/v1/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('<html');
  });

  it('answers every failure with the envelope and the request id of the Request-Id header', async () => {
    const { secret_key } = await createAccount();
    const noKey = await call('GET', '/v1/events');
    const unknownKey = await call('GET', '/v1/events', { key: 'sk_test_0000000000000000000000000000' });
    const unknownRoute = await call('GET', '/v1/nothing-here');
    const malformed = await postMalformedJson(secret_key);
    expect(noKey.status).toBe(401);
    expect(noKey.body.error.code).toBe('missing_api_key');
    expect(unknownKey.status).toBe(401);
    expect(unknownKey.body.error.code).toBe('invalid_api_key');
    expect(unknownRoute.status).toBe(404);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
    expect((await as(secret_key).get('/v1/events')).body.data).toEqual([]);
    for (const response of [noKey, unknownKey, unknownRoute, malformed]) {
      expect(response.body.error).toEqual(expect.objectContaining({ type: expect.any(String), code: expect.any(String), message: expect.any(String) }));
      expect(response.body.error.request_id).toBe(response.headers.get('request-id'));
      expect(response.body.error.request_id).toMatch(/^req_/);
    }
  });
});

describe('operational endpoints', () => {
  const opsUrl = `http://127.0.0.1:${servicePorts(E2E_PORT_OFFSET).gateway.OPS_PORT}`;

  it('are not on the public port, which answers them like any unknown route', async () => {
    for (const path of ['/metrics', '/readyz', '/healthz']) {
      const response = await call('GET', path);
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: 'route_not_found', request_id: response.headers.get('request-id') });
    }
  });

  it('are on the gateway’s ops port: readiness, liveness, and metrics of the public requests and the rate limiter', async () => {
    const ready = await fetch(`${opsUrl}/readyz`);
    expect({ status: ready.status, body: await ready.text() }).toEqual({ status: 200, body: 'ready' });
    expect((await fetch(`${opsUrl}/healthz`)).status).toBe(200);

    expect((await call('GET', '/v1/health')).status).toBe(200);
    const metrics = await waitFor('the health request to be counted', async () => {
      const text = await (await fetch(`${opsUrl}/metrics`)).text();
      return /^gateway_http_requests_total\{method="GET",route="\/v1\/health",status="200"\} [1-9]\d*$/m.test(text) ? text : undefined;
    });
    expect(metrics).toContain('# TYPE gateway_rate_limited_total counter');
    expect(metrics).toContain('# TYPE process_cpu_seconds_total counter');
  });
});
