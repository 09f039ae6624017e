import { presentedApiKey } from './presented-api-key';

/** Raw headers as Node gives them: name, value, name, value… */
const sent = (...headers: Array<[string, string]>) => headers.flat();

describe('presentedApiKey', () => {
  it('reads the Bearer token or x-api-key; both only with the same key', () => {
    expect(presentedApiKey(sent(['Authorization', 'Bearer sk_test_abc']))).toBe('sk_test_abc');
    expect(presentedApiKey(sent(['authorization', 'bearer   sk_test_abc ']))).toBe('sk_test_abc');
    expect(presentedApiKey(sent(['X-Api-Key', 'sk_test_xyz']))).toBe('sk_test_xyz');
    expect(presentedApiKey(sent(['Authorization', 'Bearer sk_test_abc'], ['x-api-key', 'sk_test_abc']))).toBe('sk_test_abc');
  });

  it('answers invalid_api_key for two different keys, whose request it would be unclear', () => {
    const twoKeys = expect.objectContaining({ code: 'invalid_api_key', message: 'Two different API keys were sent (in Authorization headers or x-api-key); send one.' });
    expect(() => presentedApiKey(sent(['Authorization', 'Bearer sk_test_abc'], ['x-api-key', 'sk_test_xyz']))).toThrow(twoKeys);
    expect(() => presentedApiKey(sent(['Authorization', 'Bearer sk_test_abc'], ['authorization', 'Bearer sk_test_xyz']))).toThrow(twoKeys);
    expect(() => presentedApiKey(sent(['x-api-key', 'sk_test_abc'], ['x-api-key', 'sk_test_xyz']))).toThrow(twoKeys);
  });

  it('reads one key sent more than once (Node joins repeated x-api-key headers into "k, k")', () => {
    expect(presentedApiKey(sent(['Authorization', 'Bearer sk_test_abc'], ['Host', 'x'], ['authorization', 'Bearer sk_test_abc']))).toBe('sk_test_abc');
    expect(presentedApiKey(sent(['x-api-key', 'sk_test_abc'], ['x-api-key', 'sk_test_abc']))).toBe('sk_test_abc');
  });

  it('reads x-api-key when the Authorization header carries no key', () => {
    expect(presentedApiKey(sent(['Authorization', 'Bearer'], ['x-api-key', 'sk_test_xyz']))).toBe('sk_test_xyz');
  });

  it('answers missing_api_key when no key was sent', () => {
    expect(() => presentedApiKey([])).toThrow(expect.objectContaining({ code: 'missing_api_key' }));
    expect(() => presentedApiKey(sent(['Authorization', 'Bearer']))).toThrow(expect.objectContaining({ code: 'missing_api_key' }));
    expect(() => presentedApiKey(sent(['x-api-key', '']))).toThrow(expect.objectContaining({ code: 'missing_api_key' }));
  });

  it('answers invalid_api_key for another authorization scheme', () => {
    expect(() => presentedApiKey(sent(['Authorization', 'Basic c2tfdGVzdDo=']))).toThrow(expect.objectContaining({ code: 'invalid_api_key' }));
  });
});
