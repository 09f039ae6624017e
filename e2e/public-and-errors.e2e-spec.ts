import { call } from './support/api';
import { gatewayUrl } from './support/system';

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
    const noKey = await call('GET', '/v1/events');
    const unknownKey = await call('GET', '/v1/events', { key: 'sk_test_0000000000000000000000000000' });
    const unknownRoute = await call('GET', '/v1/nothing-here');
    const malformed = await fetch(`${gatewayUrl}/v1/events`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer x' }, body: '{"name":' });
    expect(noKey.status).toBe(401);
    expect(noKey.body.error.code).toBe('missing_api_key');
    expect(unknownKey.status).toBe(401);
    expect(unknownKey.body.error.code).toBe('invalid_api_key');
    expect(unknownRoute.status).toBe(404);
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    for (const response of [noKey, unknownKey, unknownRoute]) {
      expect(response.body.error).toEqual(expect.objectContaining({ type: expect.any(String), code: expect.any(String), message: expect.any(String) }));
      expect(response.body.error.request_id).toBe(response.headers.get('request-id'));
      expect(response.body.error.request_id).toMatch(/^req_/);
    }
  });
});
