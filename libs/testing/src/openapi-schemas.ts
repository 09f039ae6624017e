import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const DOCUMENT_ID = 'openapi.json';

/**
 * Keywords OpenAPI 3.1 adds to JSON Schema (annotations that validate nothing), and the
 * document's own top-level fields, so the document can hold the schemas its `$ref`s point into.
 */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs', 'openapi', 'info', 'servers', 'paths', 'components', 'tags', 'security', 'webhooks'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** One `example` written in an OpenAPI document, and where the schema it illustrates is. */
export interface DocumentExample {
  /** JSON pointer of the example itself. */
  at: string;
  /** JSON pointer of the schema the example must satisfy. */
  schemaAt: string;
  value: unknown;
}

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** The sub-schemas of a JSON Schema, with the pointer of each relative to it. */
function subSchemas(schema: JsonObject): [string, JsonObject][] {
  const found: [string, JsonObject][] = [];
  for (const keyword of ['properties', 'patternProperties', '$defs']) {
    const map = schema[keyword];
    if (isObject(map)) for (const [name, sub] of Object.entries(map)) if (isObject(sub)) found.push([`/${keyword}/${escape(name)}`, sub]);
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    const list = schema[keyword];
    if (Array.isArray(list)) list.forEach((sub, index) => isObject(sub) && found.push([`/${keyword}/${index}`, sub]));
  }
  for (const keyword of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']) {
    const sub = schema[keyword];
    if (isObject(sub)) found.push([`/${keyword}`, sub]);
  }
  return found;
}

function schemaExamples(schema: JsonObject, at: string): DocumentExample[] {
  const own: DocumentExample[] = [];
  if ('example' in schema) own.push({ at: `${at}/example`, schemaAt: at, value: schema.example });
  if (Array.isArray(schema.examples)) schema.examples.forEach((value, index) => own.push({ at: `${at}/examples/${index}`, schemaAt: at, value }));
  return [...own, ...subSchemas(schema).flatMap(([pointer, sub]) => schemaExamples(sub, `${at}${pointer}`))];
}

/** Examples of a parameter, header or media type object (beside its `schema`) and inside its schema. */
function holderExamples(holder: JsonObject, at: string): DocumentExample[] {
  if (!isObject(holder.schema)) return [];
  const own: DocumentExample[] = 'example' in holder ? [{ at: `${at}/example`, schemaAt: `${at}/schema`, value: holder.example }] : [];
  if (isObject(holder.examples)) {
    for (const [name, example] of Object.entries(holder.examples)) {
      if (isObject(example) && 'value' in example) own.push({ at: `${at}/examples/${escape(name)}/value`, schemaAt: `${at}/schema`, value: example.value });
    }
  }
  return [...own, ...schemaExamples(holder.schema, `${at}/schema`)];
}

function contentExamples(content: Json | undefined, at: string): DocumentExample[] {
  if (!isObject(content)) return [];
  return Object.entries(content).flatMap(([mediaType, media]) => (isObject(media) ? holderExamples(media, `${at}/${escape(mediaType)}`) : []));
}

function responseExamples(response: JsonObject, at: string): DocumentExample[] {
  const headers = isObject(response.headers) ? Object.entries(response.headers) : [];
  return [
    ...contentExamples(response.content, `${at}/content`),
    ...headers.flatMap(([name, header]) => (isObject(header) ? holderExamples(header, `${at}/headers/${escape(name)}`) : [])),
  ];
}

function operationExamples(operation: JsonObject, at: string): DocumentExample[] {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
  const requestBody = isObject(operation.requestBody) ? operation.requestBody : {};
  const responses = isObject(operation.responses) ? Object.entries(operation.responses) : [];
  return [
    ...parameters.flatMap((parameter, index) => (isObject(parameter) ? holderExamples(parameter, `${at}/parameters/${index}`) : [])),
    ...contentExamples(requestBody.content, `${at}/requestBody/content`),
    ...responses.flatMap(([status, response]) => (isObject(response) ? responseExamples(response, `${at}/responses/${escape(status)}`) : [])),
  ];
}

const entries = (value: Json | undefined): [string, Json][] => (isObject(value) ? Object.entries(value) : []);

/** Every example an OpenAPI 3.1 document gives: on schemas, parameters, headers and media types. */
export function documentExamples(document: object): DocumentExample[] {
  const root = document as JsonObject;
  const components = isObject(root.components) ? root.components : {};
  const objects = (kind: string, collect: (holder: JsonObject, at: string) => DocumentExample[]) =>
    entries(components[kind]).flatMap(([name, holder]) => (isObject(holder) ? collect(holder, `/components/${kind}/${escape(name)}`) : []));
  return [
    ...objects('schemas', schemaExamples),
    ...objects('parameters', holderExamples),
    ...objects('headers', holderExamples),
    ...objects('responses', responseExamples),
    ...entries(root.paths).flatMap(([path, item]) =>
      entries(item).flatMap(([method, operation]) => (isObject(operation) ? operationExamples(operation, `/paths/${escape(path)}/${method}`) : [])),
    ),
  ];
}

/**
 * Validates values against the schemas of one OpenAPI 3.1 document (JSON Schema 2020-12,
 * `$ref`s into its components resolved, formats checked), as clients and linters read them.
 */
export class OpenApiSchemas {
  private readonly ajv = new Ajv2020({ allErrors: true, strictTypes: false });

  constructor(document: object) {
    addFormats(this.ajv);
    this.ajv.addVocabulary(OPENAPI_KEYWORDS);
    // The document is not itself a schema: its schemas are reached by pointer.
    this.ajv.addSchema(document, DOCUMENT_ID, undefined, false);
  }

  /** Why `value` does not satisfy the schema at `pointer` (a JSON pointer into the document); empty when it does. */
  errorsAt(pointer: string, value: unknown): string[] {
    const validate = this.ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
    if (!validate) throw new Error(`The document has no schema at ${pointer}.`);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? error.keyword}`);
  }
}
