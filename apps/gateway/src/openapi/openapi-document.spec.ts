import { routeTable } from '../routes';
import { openApiDocument } from './openapi-document';

describe('the OpenAPI document', () => {
  const document = openApiDocument(routeTable);
  const operation = (method: string, path: string) => document.paths?.[path]?.[method as 'get'];

  it('is OpenAPI 3.1 with both ways of sending a key', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components?.securitySchemes).toEqual({
      BearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      ApiKeyHeader: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    });
  });

  it('describes every route of the table with its summary, tag, scope and key kind', () => {
    for (const route of routeTable) {
      const described = operation(route.method, route.path);
      expect(described).toMatchObject({ operationId: route.operationId, summary: route.summary, tags: [route.tag] });
      if (route.access.kind === 'public') {
        expect(described?.security).toEqual([]);
      } else {
        expect(described).toMatchObject({ 'x-required-scope': route.access.scope, 'x-key-kind': route.access.kind });
        if (route.access.scope) expect(described?.description).toContain(route.access.scope);
      }
    }
  });

  it('gives every catalog request and response body a typed schema with an example', () => {
    const catalogRoutes = routeTable.filter((route) => ['Events', 'Tiers', 'Organizations', 'Discounts'].includes(route.tag));
    type Schema = { $ref?: string; example?: unknown; type?: unknown; properties?: Record<string, unknown> };
    const resolve = (schema: Schema | undefined): Schema | undefined =>
      schema?.$ref ? (document.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')] as Schema) : schema;
    const jsonSchema = (content: unknown) => resolve((content as Record<string, { schema?: Schema }> | undefined)?.['application/json']?.schema);
    expect(catalogRoutes.length).toBeGreaterThanOrEqual(21);
    for (const route of catalogRoutes) {
      const described = operation(route.method, route.path)!;
      const response = jsonSchema((described.responses?.['200'] as { content?: unknown } | undefined)?.content);
      expect({ operation: route.operationId, type: response?.type, example: response?.example !== undefined }).toEqual({ operation: route.operationId, type: 'object', example: true });
      if (route.body) {
        const body = jsonSchema((described.requestBody as { content?: unknown }).content);
        expect({ operation: route.operationId, properties: Object.keys(body?.properties ?? {}).length > 0, example: body?.example !== undefined }).toEqual({
          operation: route.operationId,
          properties: true,
          example: true,
        });
      }
    }
  });

  it('documents parameters, bodies, responses and the error envelope', () => {
    const getEvent = operation('get', '/v1/events/{id}')!;
    expect(getEvent.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(getEvent.responses?.['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Event' });
    expect(getEvent.responses?.['403'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });

    const listEvents = operation('get', '/v1/events')!;
    expect(listEvents.parameters?.map((parameter) => ('name' in parameter ? parameter.name : undefined))).toEqual(['limit', 'starting_after', 'status', 'organization_id', 'starts_after', 'starts_before', 'q']);

    const mintKey = operation('post', '/v1/account/keys')!;
    const body = mintKey.requestBody && 'content' in mintKey.requestBody ? mintKey.requestBody.content['application/json']?.schema : undefined;
    expect(body).toMatchObject({ required: ['label', 'scopes'], additionalProperties: false });
    expect(mintKey.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]);

    expect(document.components?.schemas?.ApiKey).toMatchObject({ properties: { revoked_at: { type: ['string', 'null'] } } });
  });

  it('says which operations are not available yet', () => {
    expect(operation('post', '/v1/checkout/sessions')).toMatchObject({ description: expect.stringContaining('501') });
    expect(operation('post', '/v1/checkout/sessions')?.responses).toHaveProperty('501');
    expect(operation('get', '/v1/events')?.responses).not.toHaveProperty('501');
  });
});
