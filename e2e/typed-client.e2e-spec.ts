import { servedOpenApiDocument } from '../tools/openapi/served-document';
import { createAccount } from './support/api';
import { gatewayUrl } from './support/system';
import { liveOpenApiDocument, typedClient, type TypedClient } from './support/typed-client';

const newEvent = { name: 'Typed Night', starts_at: '2027-09-01T20:00:00Z', currency: 'EUR' };

describe('the typed client generated from the OpenAPI document', () => {
  let document: object;
  let key: string;
  let api: TypedClient;

  beforeAll(async () => {
    document = await liveOpenApiDocument();
    key = (await createAccount()).secret_key;
    api = typedClient(key, document);
  });

  it('is typed from the very document the gateway serves', () => {
    // npm test checks the client's types against the in-process document (tools/codegen/openapi-client.ts --check).
    expect(document).toEqual(JSON.parse(JSON.stringify(servedOpenApiDocument())));
  });

  it('creates and reads events and tiers, each answer as the document describes it', async () => {
    const created = await api.POST('/v1/events', { body: newEvent });
    expect(created.response.status).toBe(200);
    const event = created.data!;
    expect(event).toMatchObject({ object: 'event', name: 'Typed Night', status: 'draft', currency: 'EUR', tiers: [] });

    const tier = (await api.POST('/v1/events/{id}/tiers', { params: { path: { id: event.id } }, body: { name: 'Standing', price: 2500, capacity: 100 } })).data!;
    expect(tier).toMatchObject({ object: 'tier', event_id: event.id, price: 2500, currency: 'EUR', available: 100 });

    const read = await api.GET('/v1/events/{id}', { params: { path: { id: event.id } } });
    expect(read.data?.tiers.map((each) => each.id)).toEqual([tier.id]);
    for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(read.response.headers.get(header)).toMatch(/^\d+$/);

    const tiers = await api.GET('/v1/events/{id}/tiers', { params: { path: { id: event.id }, query: { limit: 10 } } });
    expect(tiers.data).toMatchObject({ object: 'list', has_more: false, data: [{ id: tier.id }] });

    const resized = await api.PATCH('/v1/events/{id}/tiers/{tierId}', { params: { path: { id: event.id, tierId: tier.id } }, body: { capacity: 80 } });
    expect(resized.data).toMatchObject({ id: tier.id, capacity: 80, available: 80 });

    const published = await api.PATCH('/v1/events/{id}', { params: { path: { id: event.id } }, body: { status: 'published' } });
    expect(published.data?.status).toBe('published');

    const listed = await api.GET('/v1/events', { params: { query: { limit: 1, status: 'published' } } });
    expect(listed.data?.data.map((each) => each.id)).toEqual([event.id]);
  });

  it('replays an idempotent create with the documented Idempotent-Replayed header', async () => {
    const options = { body: newEvent, params: { header: { 'Idempotency-Key': `typed-${Date.now()}` } } };
    const first = await api.POST('/v1/events', options);
    const again = await api.POST('/v1/events', options);
    expect(again.data?.id).toBe(first.data?.id);
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers errors with the status and code the document lists for the operation', async () => {
    const event = (await api.POST('/v1/events', { body: newEvent })).data!;
    const skipped = await api.PATCH('/v1/events/{id}', { params: { path: { id: event.id } }, body: { status: 'completed' } });
    expect(skipped.response.status).toBe(409);
    expect(skipped.error?.error.code).toBe('event_status_transition_invalid');

    const missing = await api.GET('/v1/events/{id}', { params: { path: { id: 'evt_00000000000000000000000000' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error).toMatchObject({ code: 'resource_missing', request_id: missing.response.headers.get('request-id') });

    // A parameter the document does not have: the client's types refuse it, so cast it past them.
    const unknown = await api.GET('/v1/events', { params: { query: { colour: 'red' } as unknown as { limit: number } } });
    expect(unknown.response.status).toBe(400);
    expect(unknown.error?.error).toMatchObject({ code: 'parameter_unknown', param: 'colour' });
  });

  it('fails a call whose answer the document does not describe', async () => {
    const undocumented = { ...(document as any), paths: { ...(document as any).paths, '/v1/events/{id}': { get: { responses: { '200': (document as any).paths['/v1/events/{id}'].get.responses['200'] } } } } };
    const strict = typedClient(key, undocumented);
    await expect(strict.GET('/v1/events/{id}', { params: { path: { id: 'evt_00000000000000000000000000' } } })).rejects.toThrow(/answered 404, a status its OpenAPI operation does not list/);
  });

  it('answers any other path under /v1/docs with the error envelope', async () => {
    for (const path of ['/v1/docs/package.json', '/v1/docs/index.html', '/v1/docs/nothing.js']) {
      const response = await fetch(`${gatewayUrl}${path}`);
      expect({ path, status: response.status, type: response.headers.get('content-type') }).toEqual({ path, status: 404, type: expect.stringContaining('application/json') });
      expect(((await response.json()) as any).error).toMatchObject({ code: 'route_not_found', request_id: response.headers.get('request-id') });
    }
    expect((await fetch(`${gatewayUrl}/v1/docs/swagger-ui.css`)).status).toBe(200);
  });
});
