import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { OpenApiSchemas } from '@ticketing/testing';
import type { paths } from './generated/openapi';
import { gatewayUrl } from './system';

type Json = any;

const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** The object at a local `$ref` (`#/components/headers/Request-Id`), or the object itself. */
function resolved(document: Json, node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((at: Json, token: string) => at?.[token.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/**
 * Fails a call whose answer the document does not describe: a status its operation does not
 * list (only a 5xx may fall to `default`), a required header missing, or a JSON body that does
 * not match the documented schema.
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
      const problems = Object.entries<Json>(documented.headers ?? {})
        .filter(([name, header]) => resolved(document, header).required && !response.headers.has(name))
        .map(([name]) => `header ${name} is missing`);
      if (documented.content?.['application/json']) {
        const schemaAt = `/paths/${escape(schemaPath)}/${method}/responses/${escape(listed)}/content/application~1json/schema`;
        problems.push(...schemas.errorsAt(schemaAt, await response.clone().json()).map((problem) => `body ${problem}`));
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
