import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { readableLimit } from '../http/json-body.middleware';
import { IDEMPOTENCY_KEY_HEADER } from '../idempotency/idempotency.middleware';
import { isImplemented, type Access, type Route } from '../routes/route';
import { API_TAGS } from '../routes/tags';
import { errorEnvelope, errorEnvelopeFor } from './error-schemas';
import { operationErrors } from './operation-errors';
import { RESPONSE_HEADERS, responseHeaders } from './response-headers';
import { SECURITY_SCHEMES, securityRequirements } from './security';
import { webhookEvents } from './webhook-events';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

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

/** What an error status means for this operation, before the list of its codes. */
function errorMeaning(route: Route, status: number): string {
  const { access } = route;
  switch (status) {
    case 400:
      return 'The request is invalid: a parameter is missing, malformed or unknown, or names something that does not exist.';
    case 401:
      return 'No key, or a key that is invalid, revoked or of the wrong kind.';
    case 403:
      return access.kind !== 'public' && access.scope !== null ? `The key may not do this; it needs scope \`${access.scope}\`.` : 'The key may not do this.';
    case 404:
      return 'No such resource in this account and mode.';
    case 409:
      return 'The request conflicts with the current state of the resource, or of its Idempotency-Key.';
    case 413:
      return `The body is larger than ${readableLimit(route.bodyLimit)}.`;
    case 415:
      return 'The body is not sent as application/json.';
    case 429:
      return 'Too many requests: wait Retry-After seconds, then retry.';
    case 501:
      return 'Not available yet.';
    default:
      return `${STATUS_CODES[status] ?? 'Error'}.`;
  }
}

function errorResponses(route: Route): Record<string, ResponseConfig> {
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, codes] of operationErrors(route)) {
    responses[status] = {
      description: `${errorMeaning(route, status)} Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.`,
      headers: responseHeaders(route, status, codes),
      content: { 'application/json': { schema: errorEnvelopeFor(status) } },
    };
  }
  responses.default = {
    description: 'Any other error, such as 500 `internal_error` or 503 `service_unavailable`; retry later.',
    headers: responseHeaders(route, 'default'),
    content: { 'application/json': { schema: errorEnvelope } },
  };
  return responses;
}

function routeConfig(route: Route): RouteConfig {
  const notYet = isImplemented(route) ? '' : '\n\nNot available yet: answers 501 `not_implemented` once the key and scope checks pass.';
  return {
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    description: `${accessDescription(route.access)}${notYet}`,
    tags: [route.tag],
    security: securityRequirements(route.access),
    request: {
      params: route.params,
      query: route.query,
      ...(route.method === 'post' && { headers: idempotencyHeader }),
      // A body without fields (an action such as deactivate) is nothing to send: no request body is documented.
      ...(route.body && Object.keys(route.body.shape).length > 0 && { body: { required: true, content: { 'application/json': { schema: route.body } } } }),
    },
    responses: {
      '200': { description: 'Success.', headers: responseHeaders(route, 200), content: { [route.produces]: { schema: route.response } } },
      ...errorResponses(route),
    },
  };
}

/** The OpenAPI 3.1 document of the route table: generated once, at start-up. */
export function openApiDocument(routes: readonly Route[]): OpenApiDocument {
  const registry = new OpenAPIRegistry();
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) registry.registerComponent('securitySchemes', name, scheme);
  for (const [name, header] of Object.entries(RESPONSE_HEADERS)) registry.registerComponent('headers', name, header);
  for (const route of routes) registry.registerPath(routeConfig(route));
  for (const webhook of webhookEvents()) registry.registerWebhook(webhook);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Ticketing API',
      version: 'v1',
      description:
        'White-label ticketing API. Authenticate with a secret key (sk_test_/sk_live_) or, on hosted checkout, a publishable key (pk_test_/pk_live_). ' +
        'Every error answers the Error envelope; lists are {object:"list", data, has_more}, paged with limit and starting_after. ' +
        'For support, quote the Request-Id header of the response in question.',
      contact: { name: 'Ticketing API support' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the API is wherever this document was fetched from (docs/decisions/0017).
    servers: [{ url: '/', description: 'The gateway that serves this document.' }],
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name, description: API_TAGS[name] })),
  });
}
