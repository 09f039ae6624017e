import { documentExamples, OpenApiSchemas } from '@ticketing/testing';
import { routeTable } from '../routes';
import { openApiDocument } from './openapi-document';

describe('the examples of the OpenAPI document', () => {
  const document = openApiDocument(routeTable);
  const schemas = new OpenApiSchemas(document);
  const examples = documentExamples(document);

  it('are found wherever the document gives one: schemas, parameters, headers and bodies', () => {
    const at = examples.map((example) => example.at);
    expect(at).toContain('/components/schemas/SimilarEvent/example');
    expect(at).toContain('/components/headers/Request-Id/schema/example');
    expect(at.some((pointer) => pointer.startsWith('/paths/~1v1~1events/post/requestBody/content/application~1json/schema'))).toBe(true);
    expect(at.some((pointer) => /\/parameters\/\d+\/schema\/example$/.test(pointer))).toBe(true);
    expect(examples.length).toBeGreaterThan(200);
  });

  it('each satisfy the schema they illustrate', () => {
    const invalid = examples.map((example) => ({ at: example.at, errors: schemas.errorsAt(example.schemaAt, example.value) })).filter(({ errors }) => errors.length > 0);
    expect(invalid).toEqual([]);
  });

  it('would be caught if one did not', () => {
    const event = examples.find((example) => example.at === '/components/schemas/Event/example')!;
    const { livemode: _livemode, ...withoutLivemode } = event.value as Record<string, unknown>;
    expect(schemas.errorsAt(event.schemaAt, withoutLivemode)).toEqual(["(root) must have required property 'livemode'"]);
    expect(schemas.errorsAt(event.schemaAt, { ...withoutLivemode, livemode: false, starts_at: 'next week' })).toEqual(['/starts_at must match format "date-time"']);
  });
});
