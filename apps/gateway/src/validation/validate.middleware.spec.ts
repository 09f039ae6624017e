import type { Request, Response } from 'express';
import { z } from 'zod';
import type { ApiError } from '@ticketing/errors';
import { requestState } from '../http/request-state';
import { defineRoute, secretKey } from '../routes/route';
import { text } from './fields';
import { listQuery } from './list-query';
import { validateInput } from './validate.middleware';

const route = defineRoute({
  operationId: 'updateThing',
  method: 'patch',
  path: '/v1/things/{id}/parts/{part_id}',
  summary: 'A route with every kind of input',
  tag: 'Events',
  access: secretKey(null),
  query: listQuery.extend({ q: z.string().optional() }),
  body: z.strictObject({
    name: text(50).optional(),
    kind: z.enum(['sale', 'comp']).optional(),
    labels: z.array(z.strictObject({ label: text(20) })).optional(),
    metadata: z.record(z.string(), z.string()).optional(),
  }),
  response: z.object({}),
  handler: async () => ({}),
});

const valid = { params: { id: 'thing_1', part_id: 'part_1' }, query: { limit: '5' }, body: { name: 'Bolt' } };

/** Runs the route's validation on one request; answers the error it raised, if any. */
function validate(input: { params?: Record<string, string>; query?: unknown; body?: unknown }): { error?: ApiError; res: Response } {
  const req = { ...valid, ...input } as unknown as Request;
  const res = { locals: {} } as Response;
  try {
    validateInput(route)(req, res, () => undefined);
    return { res };
  } catch (error) {
    return { error: error as ApiError, res };
  }
}

const refusedNaming = (param: string) =>
  expect.objectContaining({ code: 'parameter_invalid', status: 400, param, message: `Invalid ${param}: must not contain the NUL character (U+0000).` });

describe('validateInput', () => {
  it('hands the handler the validated input', () => {
    const { error, res } = validate({});
    expect(error).toBeUndefined();
    expect(requestState(res).input).toEqual({ params: valid.params, query: { limit: 5 }, body: { name: 'Bolt' } });
  });

  it('says in its own words what a field takes, where the field gives no message of its own', () => {
    expect(validate({ body: { name: 5 } }).error).toMatchObject({ param: 'name', message: 'Invalid name: must be a string, not a number.' });
    expect(validate({ body: { labels: {} } }).error).toMatchObject({ param: 'labels', message: 'Invalid labels: must be an array, not an object.' });
    expect(validate({ body: { labels: ['x'] } }).error).toMatchObject({ param: 'labels[0]', message: 'Invalid labels[0]: must be an object, not a string.' });
    expect(validate({ body: { kind: 'gift' } }).error).toMatchObject({ param: 'kind', message: 'Invalid kind: must be one of sale, comp.' });
  });

  it('says a query parameter given more than once was, rather than that it is of the wrong type', () => {
    for (const query of [{ limit: ['5', '6'] }, { q: ['a', 'b', 'c'] }]) {
      const [[param, values]] = Object.entries(query) as [[string, string[]]];
      expect(validate({ query }).error).toEqual(expect.objectContaining({ code: 'parameter_invalid', param, message: `Invalid ${param}: it was given ${values.length} times; give it once.` }));
    }
  });

  describe('refuses the NUL character (PostgreSQL cannot store it) naming the parameter', () => {
    it('in a path parameter', () => {
      expect(validate({ params: { id: 'thing_1', part_id: 'part\u00001' } }).error).toEqual(refusedNaming('part_id'));
      expect(validate({ params: { id: '\u0000', part_id: 'part_1' } }).error).toEqual(refusedNaming('id'));
    });

    it('in a list query parameter, a filter or a repeated one', () => {
      expect(validate({ query: { starting_after: 'thing_\u0000' } }).error).toEqual(refusedNaming('starting_after'));
      expect(validate({ query: { q: 'x\u0000' } }).error).toEqual(refusedNaming('q'));
      expect(validate({ query: { q: ['x', '\u0000'] } }).error).toEqual(refusedNaming('q[1]'));
    });

    it('in a text body field, however deep, and in a key', () => {
      expect(validate({ body: { name: 'Bo\u0000lt' } }).error).toEqual(refusedNaming('name'));
      expect(validate({ body: { labels: [{ label: 'ok' }, { label: '\u0000' }] } }).error).toEqual(refusedNaming('labels[1].label'));
      expect(validate({ body: { metadata: { 'colo\u0000r': 'red' } } }).error).toEqual(refusedNaming('metadata.colo\\u0000r'));
    });

    it('in a key named __proto__, which a decoded object would silently drop', () => {
      for (const body of ['{"metadata":{"__proto__":"x"}}', '{"__proto__":{"polluted":"yes"}}']) {
        const param = body.startsWith('{"metadata"') ? 'metadata.__proto__' : '__proto__';
        expect(validate({ body: JSON.parse(body) }).error).toEqual(expect.objectContaining({ code: 'parameter_invalid', param, message: expect.stringContaining("must not be named '__proto__'") }));
      }
    });

    it('before the schema, whose own complaint would not say what is wrong', () => {
      expect(validate({ body: { name: 'Bolt', unknown: '\u0000' } }).error).toEqual(refusedNaming('unknown'));
    });

    it('at the bottom of a deeply nested body, without overflowing the stack', () => {
      const depth = 100_000;
      let deep: unknown = '\u0000';
      for (let level = 0; level < depth; level += 1) deep = [deep];
      expect(validate({ body: { labels: deep } }).error).toEqual(refusedNaming(`labels${'[0]'.repeat(depth)}`));
    });
  });

  describe('refuses a lone surrogate (it would be stored as U+FFFD, not as sent) naming the parameter', () => {
    const refusedSurrogate = (param: string, codeUnit: string) =>
      expect.objectContaining({ code: 'parameter_invalid', param, message: `Invalid ${param}: must be well-formed Unicode, not hold a lone surrogate (U+${codeUnit}).` });

    it('a high or a low one, in a field or a key', () => {
      expect(validate({ body: { name: 'Bolt \ud800' } }).error).toEqual(refusedSurrogate('name', 'D800'));
      expect(validate({ body: { name: '\udc00 Bolt' } }).error).toEqual(refusedSurrogate('name', 'DC00'));
      expect(validate({ body: { name: 'Bolt', metadata: { 'k\udbff': 'v' } } }).error).toEqual(refusedSurrogate('metadata.k\\udbff', 'DBFF'));
    });

    it('but takes a surrogate pair, such as an emoji', () => {
      expect(validate({ body: { name: 'Bolt \ud83d\ude00' } }).error).toBeUndefined();
    });
  });
});
