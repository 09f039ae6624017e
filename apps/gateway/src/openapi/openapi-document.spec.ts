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

  it('documents parameters, bodies, responses and the error envelope', () => {
    const getEvent = operation('get', '/v1/events/{id}')!;
    expect(getEvent.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(getEvent.responses?.['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Event' });
    expect(getEvent.responses?.['403'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });

    const listEvents = operation('get', '/v1/events')!;
    expect(listEvents.parameters?.map((parameter) => ('name' in parameter ? parameter.name : undefined))).toEqual(['limit', 'starting_after']);

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
