import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { ApiError } from '@ticketing/errors';
import type { CallerOptions } from '@ticketing/grpc';
import type { Logger } from '@ticketing/observability';
import { authenticate } from '../auth/authenticate.middleware';
import { authorize } from '../auth/authorize.middleware';
import { internalClaims } from '../auth/internal-claims';
import type { KeyVerifier } from '../auth/key-verifier';
import { backendServices, type BackendClients } from '../grpc/service-calls';
import { jsonBody } from '../http/json-body.middleware';
import { requestState } from '../http/request-state';
import { idempotency } from '../idempotency/idempotency.middleware';
import type { IdempotencyStore } from '../idempotency/idempotency.store';
import type { ApiReference } from '../openapi/api-reference';
import type { CatalogReadCache } from '../reads/catalog-read-cache';
import type { RateLimits } from '../rate-limit/rate-limits';
import { bucketOf } from '../rate-limit/budgets';
import { validateInput } from '../validation/validate.middleware';
import { isImplemented, type Route } from './route';
import { inMatchingOrder } from './route-order';

export interface RouteTableDeps {
  verifier: KeyVerifier;
  idempotencyStore: IdempotencyStore;
  rateLimits: RateLimits;
  clients: BackendClients;
  caller: CallerOptions;
  /** Keeps the answers of catalog reads (routes with `catalogRead`) until the tenant's next catalog write. */
  catalogReads: CatalogReadCache;
  reference: ApiReference;
  logger: Logger;
}

const notImplemented: RequestHandler = () => {
  throw new ApiError('not_implemented', 'This operation is not available yet.');
};

function matched(route: Route): RequestHandler {
  return (_req, res, next) => {
    requestState(res).route = route;
    next();
  };
}

function respond(route: Route & { handler: NonNullable<Route['handler']> }, deps: RouteTableDeps): RequestHandler {
  return async (_req, res) => {
    const state = requestState(res);
    const answer = () => {
      const caller = state.idempotency ? { ...deps.caller, idempotency: state.idempotency } : deps.caller;
      const services = backendServices(deps.clients, internalClaims(state.requestId, state.key), caller);
      return route.handler(state.input!, { services, reference: deps.reference, key: state.key });
    };
    if (route.catalogRead && state.key) {
      const tenant = { accountId: state.key.account_id, mode: state.key.mode };
      res.type('json').send(await deps.catalogReads.read(tenant, route.catalogRead(state.input!), answer));
      return;
    }
    const body = await answer();
    if (route.produces === 'text/html') res.type('html').send(body);
    else res.json(body);
  };
}

/**
 * Each operation's pipeline, in the order the architecture fixes (docs/decisions/0010):
 * authenticate (a key not verified before is looked up only if its address is within its
 * failed-authentication limit) → the key's rate limit → key kind
 * and scope → read and validate input → idempotency (POST) → handler; public routes start with
 * the address's limit. Unbuilt operations stop at 501 right after the key checks. Minting keys
 * checks kind and scope before its budget: a key that may not mint must not use up the
 * account's minting budget, which the keys that rotate credentials need (decision 0021).
 */
function pipeline(route: Route, deps: RouteTableDeps): Array<RequestHandler | ErrorRequestHandler> {
  const { rateLimits } = deps;
  const authenticated = [authenticate(deps.verifier, (req, res) => rateLimits.refuseIfFailing(req, res)), rateLimits.countFailedAuthentication];
  const keyChecks =
    route.access.kind === 'public'
      ? [rateLimits.perClient]
      : bucketOf(route) === 'key_minting'
        ? [...authenticated, authorize(route.access), rateLimits.forKey(route)]
        : [...authenticated, rateLimits.forKey(route), authorize(route.access)];
  if (!isImplemented(route)) return [...keyChecks, notImplemented];
  return [
    ...keyChecks,
    ...(route.body ? jsonBody(route.bodyLimit) : []),
    validateInput(route),
    ...(route.method === 'post' && route.access.kind !== 'public' ? [idempotency(deps.idempotencyStore, deps.logger)] : []),
    respond(route, deps),
  ];
}

const METHOD_ORDER = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];

/** The path as Express matches it: `{id}` becomes `:id`. */
const expressPath = (route: Route) => route.path.replace(/\{([^}]+)\}/g, ':$1');

/** Each operation path, in matching order, with the value of its `Allow` header: its methods, HEAD with GET, and OPTIONS. */
function allowByPath(routes: readonly Route[]): Map<string, string> {
  const methods = new Map<string, Set<string>>();
  for (const route of inMatchingOrder(routes)) methods.set(expressPath(route), (methods.get(expressPath(route)) ?? new Set<string>()).add(route.method));
  return new Map(
    [...methods].map(([path, served]) => {
      const all = new Set([...served, ...(served.has('get') ? ['head'] : []), 'options']);
      return [path, METHOD_ORDER.filter((method) => all.has(method)).map((method) => method.toUpperCase()).join(', ')];
    }),
  );
}

/**
 * A router that matches paths in the letter case the document spells them: `/V1/Events` is no
 * operation's path (Express matched it by default), so a client's typo is a 404 it sees, not a
 * call that works here and nowhere else. A trailing slash is still taken (`/v1/docs/` is the
 * explorer's page too).
 */
const exactRouter = () => Router({ caseSensitive: true });

/**
 * OPTIONS on an operation's path: 204 with the methods the path takes in `Allow`, and no body
 * (Express's own answer was a 200 with that list as plain text). The API takes no CORS
 * preflights: keys are for servers. Its own router, entered only by OPTIONS requests, so the
 * others walk no extra layers; counted per client address before it gets here (app.ts).
 */
function optionsAnswers(routes: readonly Route[]): Router {
  const options = exactRouter();
  for (const [path, allow] of allowByPath(routes)) options.options(path, (_req, res) => void res.set('Allow', allow).status(204).end());
  return options;
}

/**
 * For a request no operation served: 405 `method_not_allowed`, with `Allow`, when its path is an
 * operation's under another method; any other request passes on (to the 404). Only requests that
 * matched no operation get here, so the operations' own requests pay nothing for it.
 */
export function methodNotAllowed(routes: readonly Route[]): Router {
  const router = exactRouter();
  for (const [path, allow] of allowByPath(routes)) {
    router.all(path, (req, res) => {
      res.set('Allow', allow);
      throw new ApiError('method_not_allowed', `${req.method} is not allowed on ${req.path}, which takes ${allow}. See /v1/docs for the available endpoints.`);
    });
  }
  return router;
}

/**
 * The operations: a request finds its operation in a radix tree of the table's paths
 * (find-my-way, which tries a static segment before a parameter whatever the order the paths
 * were added in, as inMatchingOrder orders Express's routes), then goes
 * through that operation's own router, whose one layer sets `req.params` and runs the pipeline.
 * An Express router holding them all walked their layers in order, testing each path's pattern
 * and allocating as it went: 38 of the 89 before an issuance. A request that is no operation's
 * passes on (405, 404).
 */
export function routeTableRouter(routes: readonly Route[], deps: RouteTableDeps): RequestHandler {
  const operations = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: true, maxParamLength: Number.MAX_SAFE_INTEGER });
  for (const route of routes) {
    const router = exactRouter();
    router[route.method](expressPath(route), matched(route), ...pipeline(route, deps));
    operations.on(route.method.toUpperCase() as HTTPMethod, expressPath(route), () => undefined, router);
  }
  const options = optionsAnswers(routes);
  const operationOf = (method: string, path: string) =>
    operations.find(method as HTTPMethod, path) ?? (method === 'HEAD' ? operations.find('GET', path) : null);
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return options(req, res, next);
    const operation = operationOf(req.method, req.path);
    if (!operation) return next();
    return (operation.store as Router)(req, res, next);
  };
}
