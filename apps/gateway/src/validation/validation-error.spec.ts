import { z } from 'zod';
import { uniqueItems } from './unique-items';
import { parameterName, validationError } from './validation-error';

const body = z.strictObject({
  label: z.string().min(1),
  scopes: uniqueItems(z.enum(['events:read', 'events:write'])),
  address: z.strictObject({ city: z.string() }).optional(),
});

function errorFor(input: unknown) {
  const result = body.safeParse(input);
  if (result.success) throw new Error('expected a validation failure');
  return validationError(result.error, input, 'body');
}

describe('validation errors', () => {
  it('names nested fields and array items the way the API documents them', () => {
    expect(parameterName(['scopes', 1])).toBe('scopes[1]');
    expect(parameterName(['address', 'city'])).toBe('address.city');
    expect(parameterName(['items', 0, 'price'])).toBe('items[0].price');
    expect(parameterName([])).toBeUndefined();
  });

  it('writes a key’s control characters and unpaired surrogates as \\u escapes, and cuts a long key short, never repeating them as sent', () => {
    expect(parameterName(['metadata', 'a\u0000b'])).toBe('metadata.a\\u0000b');
    expect(parameterName(['\ud800', 'x\u001b'])).toBe('\\ud800.x\\u001b');
    expect(parameterName(['tag🎟'])).toBe('tag🎟');
    expect(parameterName(['metadata', 'k'.repeat(5_000)])).toBe(`metadata.${'k'.repeat(40)}…`);
    const schema = z.object({ metadata: z.record(z.string().max(3, 'must be at most 3 characters'), z.string()) });
    const input = { metadata: { ['k'.repeat(5_000)]: 'v' } };
    expect(validationError(schema.safeParse(input).error!, input, 'body').message).toBe(`Invalid key '${'k'.repeat(40)}…' in metadata: keys must be at most 3 characters.`);
  });

  it('says what a map’s keys must be when one is refused', () => {
    const schema = z.object({ metadata: z.record(z.string().max(3, 'must be at most 3 characters'), z.string()) });
    const input = { metadata: { ok: 'v', toolong: 'v' } };
    expect(validationError(schema.safeParse(input).error!, input, 'body')).toMatchObject({
      code: 'parameter_invalid',
      param: 'metadata.toolong',
      message: "Invalid key 'toolong' in metadata: keys must be at most 3 characters.",
    });
  });

  it('says what a field that takes no null takes instead, in the API’s words rather than the validator’s', () => {
    expect(errorFor({ label: null, scopes: [] })).toMatchObject({ code: 'parameter_invalid', param: 'label', message: 'Invalid label: must be a string, not null.' });
    expect(errorFor({ label: 'x', scopes: null })).toMatchObject({ code: 'parameter_invalid', param: 'scopes', message: 'Invalid scopes: must be an array, not null.' });
  });

  it('reports an absent required field as parameter_missing', () => {
    expect(errorFor({ scopes: [] })).toMatchObject({ code: 'parameter_missing', param: 'label', status: 400, type: 'invalid_request_error' });
  });

  it('reports a wrong value as parameter_invalid, down to the array index', () => {
    expect(errorFor({ label: 'x', scopes: ['events:read', 'nope'] })).toMatchObject({ code: 'parameter_invalid', param: 'scopes[1]' });
    expect(errorFor({ label: 'x', scopes: ['events:read', 'events:read'] })).toMatchObject({ code: 'parameter_invalid', param: 'scopes[1]' });
    expect(errorFor({ label: 7, scopes: [] })).toMatchObject({ code: 'parameter_invalid', param: 'label' });
  });

  it('reports an unknown field as parameter_unknown, before the missing field it was probably meant to be', () => {
    expect(errorFor({ lable: 'x', scopes: [] })).toMatchObject({ code: 'parameter_unknown', param: 'lable', message: 'Received unknown parameter: lable.' });
    expect(errorFor({ label: 'x', scopes: [], address: { city: 'Oslo', zip: '1' } })).toMatchObject({ code: 'parameter_unknown', param: 'address.zip' });
  });

  it('says so when the unknown parameter has an empty name', () => {
    expect(errorFor({ label: 'x', scopes: [], '': 1 })).toMatchObject({ code: 'parameter_unknown', param: undefined, message: 'Received a parameter with an empty name; remove it.' });
    expect(errorFor({ label: 'x', scopes: [], address: { city: 'Oslo', '': 1 } })).toMatchObject({
      code: 'parameter_unknown',
      param: 'address',
      message: 'Received a parameter with an empty name in address; remove it.',
    });
  });

  it('refuses a body that is not an object without naming a parameter', () => {
    const error = errorFor(['label']);
    expect(error).toMatchObject({ code: 'parameter_invalid', message: 'The request body must be a JSON object.' });
    expect(error.param).toBeUndefined();
  });

  it('honours a refinement that declares the request incomplete', () => {
    const patch = z.strictObject({ name: z.string().optional() }).refine((value) => value.name !== undefined, { message: 'Provide name', params: { code: 'parameter_missing' } });
    const result = patch.safeParse({});
    expect(validationError(result.error!, {}, 'body')).toMatchObject({ code: 'parameter_missing', message: 'Provide name.' });
  });
});
