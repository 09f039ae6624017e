import { retryAfterOf, type ErrorCode } from '@ticketing/errors';
import { REQUEST_ID_HEADER } from '../http/request-id.middleware';
import type { Route } from '../routes/route';

const integer = { type: 'integer' as const, minimum: 0 };

type HeaderName = typeof REQUEST_ID_HEADER | 'Idempotent-Replayed' | 'RateLimit-Limit' | 'RateLimit-Remaining' | 'RateLimit-Reset' | 'Retry-After';

type HeaderDoc = {
  description: string;
  required?: boolean;
  schema: { type: 'string' | 'integer'; minimum?: number; enum?: string[]; example?: string | number };
};

/** Response headers, documented once under components.headers and referenced by every response that carries them. */
export const RESPONSE_HEADERS: Record<HeaderName, HeaderDoc> = {
  [REQUEST_ID_HEADER]: {
    description: 'Identifies this request; quote it to support. Equals error.request_id.',
    required: true,
    schema: { type: 'string', example: 'req_01JD3WC8E0G2J4L6N8Q0S2U4W6' },
  },
  'Idempotent-Replayed': {
    description: 'true when this is the stored response to an earlier request with the same Idempotency-Key, replayed.',
    schema: { type: 'string', enum: ['true'] },
  },
  'RateLimit-Limit': { description: 'Requests allowed in the current window (per account and mode, or per client address on public operations).', schema: { ...integer, example: 100 } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { ...integer, example: 99 } },
  'RateLimit-Reset': { description: 'Seconds until the current window resets.', schema: { ...integer, example: 1 } },
  'Retry-After': {
    description: 'Seconds to wait before retrying. Always sent with 429 (equals RateLimit-Reset); also with 409 `idempotency_key_in_use` and 503 `service_unavailable`.',
    schema: { ...integer, example: 1 },
  },
};

const RATE_LIMIT_HEADERS: HeaderName[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

type HeaderRefs = Record<string, { $ref: string }>;

const refs = (names: HeaderName[]): HeaderRefs => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/**
 * The headers of one response of an operation: the request id and the rate-limit state always
 * (per account on keyed operations, per client address on public ones: docs/decisions/0021);
 * the replay marker on POSTs that take an Idempotency-Key; Retry-After when one of the
 * response's `codes` carries it (429 `rate_limited`, 409 `idempotency_key_in_use`), and on the
 * default response (503 `service_unavailable`).
 */
export function responseHeaders(route: Route, status: number | 'default', codes: readonly ErrorCode[] = []): HeaderRefs {
  const idempotent = route.access.kind !== 'public' && route.method === 'post';
  const retryAfter = status === 'default' || codes.some((code) => code === 'rate_limited' || retryAfterOf(code) !== undefined);
  return refs([
    REQUEST_ID_HEADER,
    ...RATE_LIMIT_HEADERS,
    ...(idempotent ? (['Idempotent-Replayed'] satisfies HeaderName[]) : []),
    ...(retryAfter ? (['Retry-After'] satisfies HeaderName[]) : []),
  ]);
}
