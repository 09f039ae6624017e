import { z } from 'zod';
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { ERROR_TYPES } from '@ticketing/errors';
import { IDEMPOTENCY_KEY_HEADER } from '../idempotency/idempotency.middleware';
import { isImplemented, type Access, type Route } from '../routes/route';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

const errorEnvelope = z
  .object({
    error: z.object({
      type: z.enum(ERROR_TYPES),
      code: z.string().meta({ description: 'Stable snake_case machine code, e.g. forbidden.' }),
      message: z.string(),
      param: z.string().optional().meta({ description: 'The request parameter at fault, e.g. scopes[1].' }),
      request_id: z.string().meta({ description: 'Equals the Request-Id response header.' }),
    }),
  })
  .meta({ id: 'Error' });

const SECURITY_SCHEMES = {
  BearerAuth: { type: 'http', scheme: 'bearer', description: 'Preferred: "Authorization: Bearer <API_KEY>".' },
  ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Alternative: "x-api-key: <API_KEY>".' },
} as const;

const idempotencyHeader = z.object({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: 'Makes a retry safe: the first response to this key is stored for 24 h and replayed with Idempotent-Replayed: true.' }),
});

function accessDescription(access: Access): string {
  switch (access.kind) {
    case 'public':
      return 'Public: no key needed.';
    case 'secret':
      return access.scope === null ? 'Needs a secret key; no particular scope.' : `Needs a secret key with scope \`${access.scope}\`.`;
    case 'publishable':
      return `Needs a publishable key with scope \`${access.scope}\` (hosted checkout; secret keys are refused).`;
  }
}

function errorResponse(description: string): ResponseConfig {
  return { description, content: { 'application/json': { schema: errorEnvelope } } };
}

function errorResponses(route: Route): Record<string, ResponseConfig> {
  const responses: Record<string, ResponseConfig> = {};
  const validates = route.body !== undefined || Object.keys(route.query.shape).length > 0 || Object.keys(route.params.shape).length > 0;
  if (validates) responses['400'] = errorResponse('Invalid request: a parameter is missing, invalid or unknown.');
  if (route.access.kind !== 'public') responses['401'] = errorResponse('No key, an invalid or revoked key, or the wrong kind of key.');
  if (route.access.kind !== 'public' && route.access.scope !== null) responses['403'] = errorResponse(`The key lacks scope ${route.access.scope}.`);
  if (Object.keys(route.params.shape).length > 0) responses['404'] = errorResponse('No such resource in this account and mode.');
  if (route.method === 'post') responses['409'] = errorResponse('Idempotency-Key reused with another request, or its first request is still running.');
  if (!isImplemented(route)) responses['501'] = errorResponse('Not available yet.');
  responses.default = errorResponse('Any other error.');
  return responses;
}

function routeConfig(route: Route): RouteConfig {
  const { access } = route;
  const keyed = access.kind !== 'public';
  const notYet = isImplemented(route) ? '' : '\n\nNot available yet: answers 501 `not_implemented` once the key and scope checks pass.';
  return {
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    description: `${accessDescription(access)}${notYet}`,
    tags: [route.tag],
    security: keyed ? [{ BearerAuth: [] }, { ApiKeyHeader: [] }] : [],
    ...(access.kind !== 'public' && { 'x-required-scope': access.scope, 'x-key-kind': access.kind }),
    request: {
      params: route.params,
      query: route.query,
      ...(route.method === 'post' && { headers: idempotencyHeader }),
      ...(route.body && { body: { required: true, content: { 'application/json': { schema: route.body } } } }),
    },
    responses: {
      '200': { description: 'Success.', content: { [route.produces]: { schema: route.response } } },
      ...errorResponses(route),
    },
  };
}

/** The OpenAPI 3.1 document of the route table: generated once, at start-up. */
export function openApiDocument(routes: readonly Route[]): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) registry.registerComponent('securitySchemes', name, scheme);
  for (const route of routes) registry.registerPath(routeConfig(route));
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Ticketing API',
      version: 'v1',
      description:
        'White-label ticketing API. Authenticate with a secret key (sk_test_/sk_live_) or, on hosted checkout, a publishable key (pk_test_/pk_live_). ' +
        'Every error answers the Error envelope; lists are {object:"list", data, has_more}, paged with limit and starting_after.',
    },
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
  });
}
