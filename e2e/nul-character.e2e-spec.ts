import { z } from 'zod';
import { routeTable } from '../apps/gateway/src/routes';
import { isImplemented, pathParamNames, type Route } from '../apps/gateway/src/routes/route';
import { parameterName } from '../apps/gateway/src/validation/validation-error';
import { as, createAccount, type ApiResponse } from './support/api';
import type { Client } from './support/lists';

/**
 * PostgreSQL cannot store U+0000: before the gateway refused it, a NUL answered 500 on most
 * operations. Every implemented operation of the route table, with a NUL in each path
 * parameter, each query parameter and each text field of its body, must answer 400 naming the
 * parameter and write nothing.
 */
const NUL_VALUE = 'before\u0000after';

type FieldPath = Array<string | number>;

/** Paths to the string fields of a body schema, arrays entered at their first item. */
function stringFields(schema: z.ZodType, path: FieldPath = []): FieldPath[] {
  if (schema.def.type === 'string') return [path];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return stringFields(schema.def.innerType as z.ZodType, path);
  if (schema instanceof z.ZodPipe) return stringFields(schema.def.in as z.ZodType, path);
  if (schema instanceof z.ZodArray) return stringFields(schema.element as z.ZodType, [...path, 0]);
  if (schema instanceof z.ZodObject) return Object.entries(schema.shape).flatMap(([name, field]) => stringFields(field as z.ZodType, [...path, name]));
  return [];
}

/** The route's documented example body, so that the rest of the request is valid; none without a body. */
function exampleBody(route: Route): Record<string | number, unknown> | undefined {
  if (!route.body) return undefined;
  return structuredClone(z.globalRegistry.get(route.body)?.example ?? {}) as Record<string | number, unknown>;
}

/** The example body with `value` at `path`, creating what the example lacks on the way. */
function bodyWith(route: Route, path: FieldPath, value: string): Record<string | number, unknown> {
  const body = exampleBody(route)!;
  let at = body;
  path.forEach((segment, index) => {
    if (index === path.length - 1) at[segment] = value;
    else at = (at[segment] ??= typeof path[index + 1] === 'number' ? [] : {}) as Record<string | number, unknown>;
  });
  return body;
}

const swept = routeTable.filter(isImplemented).filter((route) => route.access.kind !== 'public');

/** Real resources of the account, by the collection a path parameter follows (`/v1/events/{id}`). */
const fixtures: Record<string, string> = {};

function urlFor(route: Route, nulParam?: string): string {
  return route.path.replace(/\/([^/]+)\/\{([^}]+)\}/g, (_match, collection: string, name: string) => {
    if (name === nulParam) return `/${collection}/${encodeURIComponent(NUL_VALUE)}`;
    // Without a fixture a made-up id still reaches validation; with one, a NUL that slipped through would reach a real row.
    return `/${collection}/${fixtures[collection] ?? `${collection}_unknown`}`;
  });
}

let api: Client;

function send(route: Route, url: string, body = exampleBody(route)): Promise<ApiResponse> {
  if (route.access.kind !== 'secret') throw new Error(`${route.operationId} needs a ${route.access.kind} key: add one to this sweep`);
  return route.method === 'get' || route.method === 'delete' ? api[route.method](url) : api[route.method](url, body);
}

function expectRefused(response: ApiResponse, param: string): void {
  expect({ status: response.status, error: response.body?.error }).toEqual({
    status: 400,
    error: expect.objectContaining({ type: 'invalid_request_error', code: 'parameter_invalid', param }),
  });
  expect(response.body.error.message).toContain('NUL');
}

/** What every read operation answers for this account: must be the same after the sweep. */
async function everythingReadable(): Promise<Record<string, unknown>> {
  const reads = swept.filter((route) => route.method === 'get');
  const answers = await Promise.all(
    reads.map(async (route) => {
      const { status, body } = await send(route, urlFor(route));
      // An error answer names its own request: only its status and code are the state.
      return [route.operationId, status === 200 ? body : { status, code: body.error.code }] as const;
    }),
  );
  return Object.fromEntries(answers);
}

let before: Record<string, unknown>;

beforeAll(async () => {
  api = as((await createAccount()).secret_key);
  const created = async (path: string, body: unknown) => {
    const response = await api.post(path, body);
    expect(response.status).toBe(200);
    return response.body;
  };
  fixtures.organizations = (await created('/v1/organizations', { name: 'Sweep Org' })).id;
  fixtures.events = (await created('/v1/events', { name: 'Sweep Night', starts_at: '2027-09-01T20:00:00Z', organization_id: fixtures.organizations })).id;
  fixtures.tiers = (await created(`/v1/events/${fixtures.events}/tiers`, { name: 'Floor', price: 2500, capacity: 10, seated: true })).id;
  const seatMap = { sections: [{ label: 'Floor', rows: [{ label: 'A', seats: [{ label: '1', tier_id: fixtures.tiers }] }] }] };
  expect((await api.put(`/v1/events/${fixtures.events}/seatmap`, seatMap)).status).toBe(200);
  fixtures.discounts = (await created('/v1/discounts', { percent_off: 10, applies_to: { event_ids: [fixtures.events] } })).id;
  fixtures.triggers = (await created(`/v1/discounts/${fixtures.discounts}/triggers`, { kind: 'min_quantity', quantity: 2 })).id;
  fixtures.keys = (await created('/v1/account/keys', { label: 'sweep', scopes: ['events:read'] })).prefix;
  before = await everythingReadable();
});

const withInput = swept.filter((route) => pathParamNames(route.path).length > 0 || Object.keys(route.query.shape).length > 0 || route.body !== undefined);

describe.each(withInput.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))('a NUL character sent to %s', (_name, route) => {
  const pathParams = pathParamNames(route.path);
  const queryParams = Object.keys(route.query.shape);
  const bodyFields = route.body ? stringFields(route.body) : [];

  for (const param of pathParams) {
    it(`in the path parameter ${param} is a 400 naming it`, async () => {
      expectRefused(await send(route, urlFor(route, param)), param);
    });
  }

  for (const param of queryParams) {
    it(`in the query parameter ${param} is a 400 naming it`, async () => {
      expectRefused(await send(route, `${urlFor(route)}?${param}=${encodeURIComponent(NUL_VALUE)}`), param);
    });
  }

  for (const path of bodyFields) {
    const param = parameterName(path)!;
    it(`in the body field ${param} is a 400 naming it`, async () => {
      expectRefused(await send(route, urlFor(route), bodyWith(route, path, NUL_VALUE)), param);
    });
  }
});

it('wrote nothing anywhere', async () => {
  expect(await everythingReadable()).toEqual(before);
});
