import { z } from 'zod';
import type { Scope } from '@ticketing/auth';
import { routeTable } from './index';
import { inMatchingOrder } from './route-order';
import { defineRoute, isImplemented, pathParamNames, secretKey, type Access, type Route } from './route';

type Expected = [operation: string, access: Access];
const secret = (scope: Scope | null, ...operations: string[]): Expected[] => operations.map((operation) => [operation, { kind: 'secret', scope }]);
const publishable = (scope: Scope, ...operations: string[]): Expected[] => operations.map((operation) => [operation, { kind: 'publishable', scope }]);

/** The spec's endpoint tables (section 4), with its "all … operations" spelt out. */
const SPEC_OPERATIONS: Expected[] = [
  ...['GET /v1/health', 'GET /v1/openapi.json', 'GET /v1/docs'].map((operation): Expected => [operation, { kind: 'public' }]),
  ...secret(null, 'GET /v1/account'),
  ...secret('keys:manage', 'POST /v1/account/keys', 'GET /v1/account/keys', 'DELETE /v1/account/keys/{prefix}'),
  ...secret('events:read', 'GET /v1/events', 'GET /v1/events/{id}', 'GET /v1/events/{id}/seatmap', 'GET /v1/events/{id}/similar', 'GET /v1/organizations', 'GET /v1/organizations/{id}'),
  ...secret(
    'events:write',
    'POST /v1/events',
    'PATCH /v1/events/{id}',
    'POST /v1/events/{id}/tiers',
    'GET /v1/discounts',
    'POST /v1/discounts',
    'GET /v1/discounts/{id}',
    'PATCH /v1/discounts/{id}',
    'POST /v1/discounts/{id}/deactivate',
    'POST /v1/discounts/{id}/triggers',
    'GET /v1/discounts/{id}/triggers',
    'DELETE /v1/discounts/{id}/triggers/{triggerId}',
  ),
  ...secret('tickets:read', 'GET /v1/tickets', 'GET /v1/tickets/{id}', 'POST /v1/tickets/{id}/delivery_link', 'GET /v1/events/{id}/comps'),
  ...secret(
    'tickets:issue',
    'POST /v1/events/{id}/tickets',
    'POST /v1/events/{id}/comps',
    'POST /v1/events/{id}/seats/hold',
    'DELETE /v1/events/{id}/seats/hold/{holdId}',
    'GET /v1/events/{id}/queue',
    'POST /v1/events/{id}/queue/join',
    'POST /v1/events/{id}/queue/leave',
  ),
  ...secret(
    'tickets:manage',
    'POST /v1/tickets/{id}/transfer',
    'POST /v1/tickets/{id}/refund',
    'POST /v1/tickets/{id}/revoke',
    'POST /v1/tickets/{id}/upgrade',
    'GET /v1/tickets/{id}/upgrade-options',
  ),
  ...secret(
    'customers:write',
    'POST /v1/customers',
    'GET /v1/customers/{id}',
    'GET /v1/customers/segments/{kind}',
    'GET /v1/segments',
    'POST /v1/segments',
    'GET /v1/segments/{id}',
    'PATCH /v1/segments/{id}',
    'DELETE /v1/segments/{id}',
  ),
  ...secret('payments:write', 'POST /v1/payment_intents', 'POST /v1/payment_intents/{id}/confirm', 'GET /v1/payments/{id}'),
  ...secret('marketplace:read', 'GET /v1/marketplace/listings', 'GET /v1/marketplace/listings/{id}'),
  ...secret('reports:read', 'GET /v1/reports/sales', 'GET /v1/reports/attendance'),
  ...secret('scanning:write', 'POST /v1/scan/validate', 'POST /v1/scan/batch', 'POST /v1/tickets/{id}/attendance'),
  ...secret(
    'staff:manage',
    'POST /v1/staff',
    'GET /v1/staff',
    'GET /v1/staff/{id}',
    'PATCH /v1/staff/{id}',
    'DELETE /v1/staff/{id}',
    'POST /v1/staff/{id}/assignments',
    'DELETE /v1/staff/{id}/assignments/{eventId}',
    'GET /v1/staff/{id}/stats',
  ),
  ...secret(
    'webhooks:manage',
    'GET /v1/webhook_endpoints',
    'POST /v1/webhook_endpoints',
    'GET /v1/webhook_endpoints/{id}',
    'PATCH /v1/webhook_endpoints/{id}',
    'DELETE /v1/webhook_endpoints/{id}',
    'POST /v1/webhook_endpoints/{id}/ping',
    'GET /v1/events/deliveries',
    'POST /v1/events/deliveries/{id}/replay',
  ),
  ...secret('payouts:read', 'GET /v1/balance', 'GET /v1/payouts'),
  ...secret('payouts:claim', 'GET /v1/connect/account', 'POST /v1/connect/account', 'POST /v1/payouts'),
  ...publishable('checkout:write', 'POST /v1/checkout/sessions', 'POST /v1/checkout/sessions/{id}/confirm'),
  ...publishable('checkout:read', 'GET /v1/checkout/sessions/{id}'),
];

/** Operations beyond the spec's tables (issue 3's extensions; issue 11's code key set; issue 12's secret rotation), each under the scope of its group. */
const EXTENSIONS: Expected[] = [
  ...secret('events:read', 'GET /v1/events/{id}/tiers'),
  ...secret('scanning:write', 'GET /v1/scan/keys'),
  ...secret('webhooks:manage', 'POST /v1/webhook_endpoints/{id}/rotate_secret'),
  ...secret('payments:write', 'GET /v1/payment_intents/{id}', 'POST /v1/payment_intents/{id}/cancel', 'POST /v1/refunds'),
  ...secret('events:write', 'POST /v1/organizations', 'PATCH /v1/organizations/{id}', 'PATCH /v1/events/{id}/tiers/{tierId}', 'PUT /v1/events/{id}/seatmap'),
];

const operation = (route: Route) => `${route.method.toUpperCase()} ${route.path}`;

/** The route Express would pick for a concrete URL, given the registration order. */
function firstMatch(method: string, url: string): Route | undefined {
  const segments = url.split('/');
  return inMatchingOrder(routeTable).find((route) => {
    const pattern = route.path.split('/');
    return route.method === method && pattern.length === segments.length && pattern.every((part, index) => part.startsWith('{') || part === segments[index]);
  });
}

describe('the route table', () => {
  it('holds every operation of the spec and its extensions exactly once, with its key kind and scope, and nothing else', () => {
    const table = routeTable.map((route) => [operation(route), route.access]);
    const expected = [...SPEC_OPERATIONS, ...EXTENSIONS];
    expect(table).toHaveLength(expected.length);
    expect(Object.fromEntries(table)).toEqual(Object.fromEntries(expected));
  });

  it('implements every catalog operation: none answers 501 any more', () => {
    const catalog = routeTable.filter((route) => ['Events', 'Tiers', 'Organizations', 'Discounts'].includes(route.tag));
    expect(catalog).toHaveLength(22);
    expect(catalog.filter((route) => !isImplemented(route)).map(operation)).toEqual([]);
  });

  it('gives each operation a unique operationId, a summary and a tag', () => {
    expect(new Set(routeTable.map((route) => route.operationId)).size).toBe(routeTable.length);
    for (const route of routeTable) {
      expect(route.summary).not.toBe('');
      expect(route.tag).not.toBe('');
    }
  });

  it('keeps publishable keys to the checkout routes, and the checkout routes to publishable keys', () => {
    for (const route of routeTable) {
      expect(route.access.kind === 'publishable').toBe(route.path.startsWith('/v1/checkout/'));
    }
  });

  it('registers static segments before parameters, so /v1/events/deliveries is never an event id', () => {
    expect(firstMatch('get', '/v1/events/deliveries')?.operationId).toBe('listWebhookDeliveries');
    expect(firstMatch('get', '/v1/events/evt_123')?.operationId).toBe('getEvent');
    expect(firstMatch('get', '/v1/customers/segments')?.operationId).toBe('getCustomer');
    expect(firstMatch('get', '/v1/customers/segments/vip')?.operationId).toBe('listSegmentCustomers');
  });

  it('registers, of any two routes that can match one URL, the one static where they first differ first', () => {
    const isParameter = (segment: string) => segment.startsWith('{');
    const ordered = inMatchingOrder(routeTable);
    let overlapping = 0;
    for (const [index, earlier] of ordered.entries()) {
      for (const later of ordered.slice(index + 1)) {
        const left = earlier.path.split('/');
        const right = later.path.split('/');
        if (earlier.method !== later.method || left.length !== right.length) continue;
        if (!left.every((segment, at) => segment === right[at] || isParameter(segment) || isParameter(right[at]!))) continue;
        overlapping += 1;
        const difference = left.findIndex((segment, at) => isParameter(segment) !== isParameter(right[at]!));
        expect(difference).toBeGreaterThan(-1);
        expect(`${operation(earlier)} before ${operation(later)}: ${left[difference]}`).not.toMatch(/: \{/);
      }
    }
    expect(overlapping).toBeGreaterThan(0);
  });

  it('keeps answers only of keyed GETs, each named after its path parameter (decision 0051)', () => {
    const kept = routeTable.filter((route) => route.catalogRead);
    expect(kept.map((route) => route.operationId).sort()).toEqual(['getDiscount', 'getEvent', 'getEventSeatmap', 'getOrganization']);
    for (const route of kept) {
      expect(route).toMatchObject({ method: 'get', access: { kind: 'secret' } });
      expect(route.catalogRead!({ params: { id: 'x_1' }, query: {}, body: undefined })).toMatch(/^[a-z]+:x_1$/);
    }
    const keptPost = () =>
      defineRoute({ operationId: 'keptPost', method: 'post', path: '/v1/things', summary: 'A write', tag: 'Events', access: secretKey('events:write'), response: z.object({}), catalogRead: () => 'thing' });
    expect(keptPost).toThrow('only a keyed GET may be a catalog read');
  });

  it('pages every list operation with limit and starting_after', () => {
    const lists = routeTable.filter((route) => route.method === 'get' && route.response.safeParse({ object: 'list', data: [], has_more: false }).success);
    expect(lists.map((route) => route.operationId)).toEqual(expect.arrayContaining(['listEvents', 'listApiKeys', 'listTickets', 'listDiscounts', 'listPayouts', 'listWebhookDeliveries']));
    for (const route of lists) expect(Object.keys(route.query.shape)).toEqual(expect.arrayContaining(['limit', 'starting_after']));
  });

  it('names path parameters one way: {id}, {prefix} and {kind} as the spec does, and <resource>Id for a nested one, like its {eventId}', () => {
    const names = [...new Set(routeTable.flatMap((route) => pathParamNames(route.path)))].sort();
    expect(names).toEqual(['eventId', 'holdId', 'id', 'kind', 'prefix', 'tierId', 'triggerId']);
    for (const route of routeTable) {
      const [first, ...nested] = pathParamNames(route.path);
      if (first !== undefined) expect(['id', 'prefix', 'kind']).toContain(first);
      for (const name of nested) expect(name).toMatch(/^[a-z]+Id$/);
    }
  });

  it('takes null, as not given, for every optional field of a create body that its answer gives as null when unset, and inside any object a body sends', () => {
    const takesNull = (field: z.ZodType) => field.safeParse(null).success;
    /** The object schema inside optional, nullable and transforming wrappers, if the field is an object. */
    const objectShape = (field: z.ZodType): Record<string, z.ZodType> | undefined => {
      if (field instanceof z.ZodObject) return field.shape;
      if (field instanceof z.ZodOptional || field instanceof z.ZodNullable) return objectShape(field.unwrap() as z.ZodType);
      if (field instanceof z.ZodPipe) return objectShape(field.in as z.ZodType);
      return undefined;
    };
    const checked: string[] = [];
    const check = (path: string, body: Record<string, z.ZodType>, answer: Record<string, z.ZodType>, nested: boolean) => {
      for (const [name, field] of Object.entries(body)) {
        const answerField = answer[name];
        if (answerField === undefined) continue;
        const [bodyObject, answerObject] = [objectShape(field), objectShape(answerField)];
        if (bodyObject && answerObject) check(`${path}.${name}`, bodyObject, answerObject, true);
        // At the top of a PATCH body, null clears; inside an object it sends, null is "not given".
        if (!field.safeParse(undefined).success || !takesNull(answerField)) continue;
        checked.push(`${path}.${name}`);
        expect({ field: `${path}.${name}`, takesNull: takesNull(field) }).toEqual({ field: `${path}.${name}`, takesNull: true });
        if (nested || path.startsWith('create')) expect({ field: `${path}.${name}`, parsed: field.parse(null) }).toEqual({ field: `${path}.${name}`, parsed: undefined });
      }
    };
    for (const route of routeTable.filter((candidate) => ['post', 'patch', 'put'].includes(candidate.method) && candidate.body && candidate.response instanceof z.ZodObject)) {
      check(route.operationId, route.body!.shape, (route.response as z.ZodObject).shape, false);
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'createEvent.ends_at',
        'createEvent.venue.address',
        'createEvent.waiting_room.admission_rate_per_minute',
        'updateEvent.venue.timezone',
        'createTier.max_per_order',
        'createOrganization.website',
        'createDiscount.code',
        'createCustomer.name',
      ]),
    );
  });
});
