import { z } from 'zod';
import { containsWholeApiKey, type CachedKey, type Scope } from '@ticketing/auth';
import type { ErrorCode } from '@ticketing/errors';
import type { BackendServices } from '../grpc/service-calls';
import { DEFAULT_BODY_LIMIT } from '../http/json-body.middleware';
import { anyId } from '../validation/fields';
import type { ApiTag } from './tags';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call an operation. `scope: null` on a secret route means any valid secret key;
 * publishable keys work only on publishable (hosted checkout) routes and always need a scope.
 */
export type Access = { kind: 'public' } | { kind: 'secret'; scope: Scope | null } | { kind: 'publishable'; scope: Scope };
export type KeyedAccess = Exclude<Access, { kind: 'public' }>;

export const publicAccess: Access = { kind: 'public' };
export const secretKey = (scope: Scope | null): Access => ({ kind: 'secret', scope });
export const publishableKey = (scope: Scope): Access => ({ kind: 'publishable', scope });

type PathParamName<TPath extends string> = TPath extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamName<Rest> : never;
export type PathParams<TPath extends string> = { [K in PathParamName<TPath>]: string };

type BodyOf<TBody> = TBody extends z.ZodObject ? z.output<TBody> : undefined;

/** What a handler receives: validated input only, never the raw request. */
export interface RouteInput<TParams = Record<string, string>, TQuery = unknown, TBody = unknown> {
  params: TParams;
  query: TQuery;
  body: TBody;
}

/**
 * The API reference as the public routes serve it. Declared here, not imported from the
 * OpenAPI generator, because the generator reads the route table: the layers point one way.
 */
export interface PublishedReference {
  document: { openapi: string };
  explorerHtml: string;
}

export interface HandlerContext {
  /** The backend services, called as the authenticated key (and tenant) of this request. */
  services: BackendServices;
  reference: PublishedReference;
  /** The authenticated key, with what the gateway caches of its account; absent on public routes. */
  key?: CachedKey;
}

export type MediaType = 'application/json' | 'text/html';

/** One operation of the public API as written in the route table. */
export interface RouteSpec<TPath extends string, TQuery extends z.ZodObject, TBody extends z.ZodObject | undefined, TResponse extends z.ZodType> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI style: `/v1/events/{id}`; each `{name}` becomes a required string parameter. */
  path: TPath;
  summary: string;
  tag: ApiTag;
  access: Access;
  /**
   * Error codes the handler can answer beyond those the pipeline implies (key, scope,
   * validation, idempotency, rate limit, a missing resource named in the path), for the
   * OpenAPI document. `resource_missing` here means an id referenced in the request (400).
   */
  errors?: readonly ErrorCode[];
  /** Strict object of query parameters; none are accepted when absent. */
  query?: TQuery;
  /**
   * Strict object the JSON body must match. Absent on a built POST, PUT or PATCH, the body must
   * be empty or `{}` (a field is parameter_unknown, another media type 415); absent elsewhere, it
   * is not read.
   */
  body?: TBody;
  /** The most the JSON body may hold, in `bytes` notation; 100kb unless the operation takes whole documents (a seat map). */
  bodyLimit?: string;
  response: TResponse;
  produces?: MediaType;
  /** The gRPC call and presenter. Without one the operation answers 501 after the key checks. */
  handler?: (input: RouteInput<PathParams<TPath>, z.output<TQuery>, BodyOf<TBody>>, context: HandlerContext) => Promise<z.input<TResponse>>;
  /**
   * For a keyed GET whose answer is catalog's data alone, the same for every key of the tenant
   * allowed to call it: the name of that answer among the tenant's (`event:<id>`). The gateway
   * then keeps the answer until catalog's next write for the tenant (decision 0051).
   */
  catalogRead?: (input: RouteInput<PathParams<TPath>, z.output<TQuery>, undefined>) => string;
}

/** A route-table entry with its types erased, as the pipeline and the OpenAPI generator see it. */
export interface Route {
  operationId: string;
  method: HttpMethod;
  path: string;
  summary: string;
  tag: ApiTag;
  access: Access;
  errors: readonly ErrorCode[];
  params: z.ZodObject<Record<string, z.ZodString>>;
  query: z.ZodObject;
  body?: z.ZodObject;
  bodyLimit: string;
  response: z.ZodType;
  produces: MediaType;
  handler?: (input: RouteInput, context: HandlerContext) => Promise<unknown>;
  catalogRead?: (input: RouteInput) => string;
}

export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

/**
 * Every path parameter is an id or a key's prefix. A whole key pasted there (into
 * `DELETE /v1/account/keys/{prefix}`, say) is refused without being repeated, and the access log
 * writes it cut to its prefix (decision 0007).
 */
const pathParam = anyId.refine((value) => !containsWholeApiKey(value), "must not be a whole API key: name a key by its prefix, as GET /v1/account/keys lists it. A key sent in a URL may be kept in logs on its way: if it is a live key, revoke it.");

const WRITE_METHODS = new Set<HttpMethod>(['post', 'put', 'patch']);

export function defineRoute<
  TPath extends string,
  TResponse extends z.ZodType,
  TQuery extends z.ZodObject = z.ZodObject<Record<never, never>>,
  TBody extends z.ZodObject | undefined = undefined,
>(spec: RouteSpec<TPath, TQuery, TBody, TResponse>): Route {
  const { handler, catalogRead, query, body, bodyLimit, produces, errors, ...rest } = spec;
  if (catalogRead && (spec.method !== 'get' || spec.access.kind === 'public')) throw new Error(`${spec.operationId}: only a keyed GET may be a catalog read`);
  return {
    ...rest,
    errors: errors ?? [],
    params: z.strictObject(Object.fromEntries(pathParamNames(spec.path).map((name) => [name, pathParam]))),
    query: query ?? z.strictObject({}),
    body: body ?? (handler && WRITE_METHODS.has(spec.method) ? z.strictObject({}) : undefined),
    bodyLimit: bodyLimit ?? DEFAULT_BODY_LIMIT,
    produces: produces ?? 'application/json',
    // Validation has already given the input exactly the shape the typed handler declares.
    handler: handler && ((input, context) => handler(input as RouteInput<PathParams<TPath>, z.output<TQuery>, BodyOf<TBody>>, context)),
    catalogRead: catalogRead && ((input) => catalogRead(input as RouteInput<PathParams<TPath>, z.output<TQuery>, undefined>)),
  };
}

export function isImplemented(route: Route): route is Route & { handler: NonNullable<Route['handler']> } {
  return route.handler !== undefined;
}
