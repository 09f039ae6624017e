import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { OpenApiSchemas } from '@ticketing/testing';
import type { paths } from './generated/openapi';
import { gatewayUrl } from './system';

type Json = any;

const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** Where a header object is in the document: its `$ref`'s target, or inline in the response. */
function headerPointer(header: Json, inline: string): string {
  return typeof header?.$ref === 'string' ? header.$ref.slice(1) : inline;
}

/** The node at a JSON pointer into the document. */
function at(document: Json, pointer: string): Json {
  return pointer
    .slice(1)
    .split('/')
    .reduce((node: Json, token: string) => node?.[token.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/** A header's text as the JSON value its schema describes: digits are a number. */
const headerValue = (text: string): unknown => (/^-?\d+$/.test(text) ? Number(text) : text);

/**
 * Fails a call whose answer the document does not describe: a status its operation does not
 * list (only a 5xx may fall to `default`), a required header missing, a header or a JSON body
 * that does not match its documented schema.
 */
function conformingTo(document: Json): Middleware {
  const schemas = new OpenApiSchemas(document);
  return {
    async onResponse({ request, response, schemaPath }) {
      const method = request.method.toLowerCase();
      const responses = document.paths[schemaPath]?.[method]?.responses;
      const operation = `${request.method} ${schemaPath}`;
      if (!responses) throw new Error(`${operation} is not in the OpenAPI document.`);
      const status = String(response.status);
      const listed = status in responses ? status : response.status >= 500 ? 'default' : undefined;
      if (listed === undefined) throw new Error(`${operation} answered ${status}, a status its OpenAPI operation does not list: ${await response.clone().text()}`);
      const documented = responses[listed];
      const responseAt = `/paths/${escape(schemaPath)}/${method}/responses/${escape(listed)}`;
      const problems: string[] = [];
      for (const [name, header] of Object.entries<Json>(documented.headers ?? {})) {
        const pointer = headerPointer(header, `${responseAt}/headers/${escape(name)}`);
        const value = response.headers.get(name);
        if (value === null) {
          if (at(document, pointer).required) problems.push(`header ${name} is missing`);
        } else {
          problems.push(...schemas.errorsAt(`${pointer}/schema`, headerValue(value)).map((problem) => `header ${name} ${problem}`));
        }
      }
      if (documented.content?.['application/json']) {
        problems.push(...schemas.errorsAt(`${responseAt}/content/application~1json/schema`, await response.clone().json()).map((problem) => `body ${problem}`));
      }
      if (problems.length > 0) throw new Error(`${operation} answered ${status} unlike its OpenAPI document: ${problems.join('; ')}.`);
    },
  };
}

export type TypedClient = Client<paths>;

/** The document the running gateway serves, as clients download it. */
export async function liveOpenApiDocument(): Promise<Json> {
  const response = await fetch(`${gatewayUrl}/v1/openapi.json`);
  if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}.`);
  return response.json();
}

/**
 * A client typed by the generated declarations (e2e/support/generated/openapi.d.ts), calling
 * as one key, whose every answer is checked against the live document: a drift between the
 * document and the gateway's behaviour fails the test that made the call.
 */
export function typedClient(key: string, document: Json): TypedClient {
  const client = createClient<paths>({ baseUrl: gatewayUrl, headers: { authorization: `Bearer ${key}` } });
  client.use(conformingTo(document));
  return client;
}
