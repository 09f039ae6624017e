import { WEBHOOK_PAYLOADS } from '@ticketing/contracts';
import { ERROR_CODES, paramStatusOf, type ErrorCode } from '@ticketing/errors';
import { routeTable } from '../routes';
import { isImplemented } from '../routes/route';
import { API_TAGS } from '../routes/tags';
import { openApiDocument } from './openapi-document';

type Json = any;

describe('the OpenAPI document', () => {
  const document: Json = openApiDocument(routeTable);
  const operation = (method: string, path: string): Json => document.paths?.[path]?.[method];
  const operations = routeTable.map((route) => ({ route, described: operation(route.method, route.path) }));
  const schemaOf = (response: Json) => response.content['application/json'].schema;
  const component = (ref: { $ref: string }): Json => ref.$ref.split('/').slice(1).reduce((node: Json, key) => node[key], document);
  const codesOf = (response: Json): ErrorCode[] => component(schemaOf(response)).properties.error.properties.code.enum;
  const documentedCodes = (method: string, path: string, status: string) => operation(method, path).responses[status].description;

  it('is OpenAPI 3.1 with a server, contact, licence and a description on every tag', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(document.info).toMatchObject({ contact: { name: expect.any(String) }, license: { name: 'Proprietary', identifier: expect.any(String) } });
    expect(document.tags.map((tag: Json) => tag.name)).toEqual([...new Set(routeTable.map((route) => route.tag))]);
    for (const tag of document.tags) expect(tag.description).toBe(API_TAGS[tag.name as keyof typeof API_TAGS]);
  });

  it('describes every route of the table with its summary and tag', () => {
    for (const { route, described } of operations) {
      expect(described).toMatchObject({ operationId: route.operationId, summary: route.summary, tags: [route.tag] });
    }
  });

  it('states who may call each operation as security requirements: the kind of key, and its scope', () => {
    const schemes = document.components.securitySchemes;
    expect(schemes).toEqual({
      secretKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      secretKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
      publishableKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      publishableKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
      webhookSignature: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'webhook-signature' }),
    });
    expect(schemes.publishableKey['x-scopes']).toEqual(['checkout:read', 'checkout:write']);
    expect(operation('get', '/v1/events').security).toEqual([{ secretKey: ['events:read'] }, { secretKeyHeader: ['events:read'] }]);
    expect(operation('get', '/v1/account').security).toEqual([{ secretKey: [] }, { secretKeyHeader: [] }]);
    expect(operation('get', '/v1/checkout/sessions/{id}').security).toEqual([{ publishableKey: ['checkout:read'] }, { publishableKeyHeader: ['checkout:read'] }]);
    for (const { route, described } of operations) {
      if (route.access.kind === 'public') {
        expect(described.security).toEqual([]);
        continue;
      }
      const [bearer, header] = route.access.kind === 'secret' ? ['secretKey', 'secretKeyHeader'] : ['publishableKey', 'publishableKeyHeader'];
      const scopes = route.access.scope === null ? [] : [route.access.scope];
      expect(described.security).toEqual([{ [bearer]: scopes }, { [header]: scopes }]);
      for (const scope of scopes) expect(schemes[bearer]['x-scopes']).toContain(scope);
    }
  });

  it('documents every type a webhook delivery can carry, with its Standard Webhooks headers and its data', () => {
    const webhooks = document.webhooks as Record<string, { post: Json }>;
    expect(Object.keys(webhooks).sort()).toEqual([...Object.keys(WEBHOOK_PAYLOADS)].sort());
    expect(Object.keys(webhooks)).toEqual(expect.arrayContaining(['event.created', 'ticket.issued', 'endpoint.disabled', 'ping']));
    for (const [type, { post }] of Object.entries(webhooks)) {
      expect(post.security).toEqual([{ webhookSignature: [] }]);
      expect(post.parameters.map((parameter: Json) => parameter.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
      const body = post.requestBody.content['application/json'].schema;
      expect(body.required).toEqual(['id', 'type', 'created_at', 'livemode', 'data']);
      expect(body.properties.type.enum).toEqual([type]);
      expect(body.properties.data.type).toBe('object');
    }
    expect(Object.keys(webhooks['ticket.issued']!.post.requestBody.content['application/json'].schema.properties.data.properties)).toContain('ticket_ids');
  });

  it('gives every catalog request and response body a typed schema with an example', () => {
    const catalogRoutes = routeTable.filter((route) => ['Events', 'Tiers', 'Organizations', 'Discounts'].includes(route.tag));
    const resolve = (schema: Json) => (schema?.$ref ? component(schema) : schema);
    expect(catalogRoutes.length).toBeGreaterThanOrEqual(21);
    for (const route of catalogRoutes) {
      const described = operation(route.method, route.path);
      const response = resolve(schemaOf(described.responses['200']));
      expect({ operation: route.operationId, type: response?.type, example: response?.example !== undefined }).toEqual({ operation: route.operationId, type: 'object', example: true });
      const fields = Object.keys(route.body?.shape ?? {});
      // An action without fields (deactivate) documents no body to send.
      expect({ operation: route.operationId, documentsBody: described.requestBody !== undefined }).toEqual({ operation: route.operationId, documentsBody: fields.length > 0 });
      if (fields.length > 0) {
        const body = resolve(schemaOf(described.requestBody));
        expect({ operation: route.operationId, properties: Object.keys(body?.properties ?? {}).length > 0, example: body?.example !== undefined }).toEqual({
          operation: route.operationId,
          properties: true,
          example: true,
        });
      }
    }
  });

  it('documents parameters, with limit an integer, and bodies', () => {
    const getEvent = operation('get', '/v1/events/{id}');
    expect(getEvent.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(schemaOf(getEvent.responses['200'])).toEqual({ $ref: '#/components/schemas/Event' });

    const listEvents = operation('get', '/v1/events');
    expect(listEvents.parameters.map((parameter: Json) => parameter.name)).toEqual(['limit', 'starting_after', 'status', 'organization_id', 'starts_after', 'starts_before', 'q']);
    for (const { route, described } of operations.filter(({ route }) => 'limit' in route.query.shape)) {
      expect({ operation: route.operationId, limit: described.parameters.find((parameter: Json) => parameter.name === 'limit').schema.type }).toEqual({ operation: route.operationId, limit: 'integer' });
    }

    const mintKey = operation('post', '/v1/account/keys');
    expect(schemaOf(mintKey.requestBody)).toMatchObject({ required: ['label', 'scopes'], additionalProperties: false });
    expect(mintKey.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]);
    expect(document.components.schemas.ApiKey).toMatchObject({ properties: { revoked_at: { type: ['string', 'null'] } } });
  });

  it('lists on each operation every 4xx it can answer, naming its codes', () => {
    const statuses = (method: string, path: string) => Object.keys(operation(method, path).responses);
    expect(statuses('patch', '/v1/events/{id}')).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '429', 'default']);
    for (const code of ['event_status_transition_invalid', 'event_finalized', 'event_currency_locked']) expect(documentedCodes('patch', '/v1/events/{id}', '409')).toContain(`\`${code}\``);
    expect(documentedCodes('patch', '/v1/events/{id}/tiers/{tierId}', '409')).toContain('`capacity_below_committed`');
    expect(documentedCodes('patch', '/v1/discounts/{id}', '409')).toContain('`discount_code_taken`');
    expect(documentedCodes('put', '/v1/events/{id}/seatmap', '409')).toContain('`seatmap_locked`');
    expect(documentedCodes('post', '/v1/account/keys', '409')).toContain('`key_limit_reached`');
    expect(documentedCodes('post', '/v1/account/keys', '403')).toContain('`mode_unavailable`');
    expect(documentedCodes('delete', '/v1/account/keys/{prefix}', '400')).toContain('`cannot_revoke_self`');
    expect(documentedCodes('get', '/v1/events', '400')).toContain('`parameter_unknown`');
    expect(documentedCodes('post', '/v1/events', '409')).toContain('`idempotency_key_in_use`');
    expect(statuses('get', '/v1/health')).toEqual(['200', '400', '429', 'default']);
    // An operation not built yet: a URL that is not valid percent-encoding, the key checks, 501.
    expect(statuses('post', '/v1/checkout/sessions')).toEqual(['200', '400', '401', '403', '429', '501', 'default']);
    expect(documentedCodes('post', '/v1/checkout/sessions', '401')).toContain('`secret_key_not_allowed`');

    for (const { route, described } of operations) {
      const listed = Object.keys(described.responses);
      expect({ operation: route.operationId, rateLimited: listed.includes('429') }).toEqual({ operation: route.operationId, rateLimited: true });
      if (route.body && isImplemented(route)) expect({ operation: route.operationId, body: listed.filter((status) => ['413', '415'].includes(status)) }).toEqual({ operation: route.operationId, body: ['413', '415'] });
      if (isImplemented(route)) expect({ operation: route.operationId, validates: listed.includes('400') }).toEqual({ operation: route.operationId, validates: true });
      for (const code of route.errors) expect(Object.values(described.responses).some((response: Json) => response.description.includes(`\`${code}\``))).toBe(true);
    }
  });

  it('makes error.code an enum of the codes each status can carry, and of every code on default', () => {
    const byStatus = (status: number) => (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].status === status || paramStatusOf(code) === status);
    const patchEvent = operation('patch', '/v1/events/{id}').responses;
    expect(schemaOf(patchEvent['409'])).toEqual({ $ref: '#/components/schemas/ConflictError' });
    expect(codesOf(patchEvent['409'])).toEqual(byStatus(409));
    expect(codesOf(patchEvent['400'])).toEqual(byStatus(400));
    expect(codesOf(patchEvent['400'])).toContain('resource_missing');
    expect(codesOf(patchEvent['429'])).toEqual(['rate_limited']);
    expect(component(schemaOf(patchEvent['429'])).properties.error.properties.type.enum).toEqual(['rate_limit_error']);
    expect(codesOf(patchEvent.default)).toEqual(Object.keys(ERROR_CODES));
  });

  it('documents Request-Id and the rate-limit state on every response, the replay marker on keyed POSTs, and Retry-After where a retry resolves the error', () => {
    expect(Object.keys(document.components.headers)).toEqual(['Request-Id', 'Idempotent-Replayed', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']);
    const headerNames = (response: Json) => Object.keys(response.headers ?? {});
    for (const { route, described } of operations) {
      const keyed = route.access.kind !== 'public';
      for (const [status, response] of Object.entries<Json>(described.responses)) {
        const expected = [
          'Request-Id',
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
          ...(keyed && route.method === 'post' ? ['Idempotent-Replayed'] : []),
          ...(status === '429' || status === 'default' || (status === '409' && String(response.description).includes('`idempotency_key_in_use`')) ? ['Retry-After'] : []),
        ];
        expect({ operation: route.operationId, status, headers: headerNames(response) }).toEqual({ operation: route.operationId, status, headers: expected });
      }
    }
    expect(operation('get', '/v1/events').responses['200'].headers['Request-Id']).toEqual({ $ref: '#/components/headers/Request-Id' });
    expect(headerNames(operation('post', '/v1/events').responses['409'])).toContain('Retry-After');
    expect(headerNames(operation('patch', '/v1/events/{id}').responses['409'])).not.toContain('Retry-After');
  });

  it('says which operations are not available yet', () => {
    expect(operation('post', '/v1/checkout/sessions')).toMatchObject({ description: expect.stringContaining('501') });
    expect(operation('post', '/v1/checkout/sessions').responses).toHaveProperty('501');
    expect(operation('get', '/v1/events').responses).not.toHaveProperty('501');
  });
});
