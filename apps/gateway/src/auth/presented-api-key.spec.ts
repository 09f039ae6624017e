import { presentedApiKey } from './presented-api-key';

describe('presentedApiKey', () => {
  it('reads the Bearer token or x-api-key; both only with the same key', () => {
    expect(presentedApiKey({ authorization: 'Bearer sk_test_abc' })).toBe('sk_test_abc');
    expect(presentedApiKey({ authorization: 'bearer   sk_test_abc ' })).toBe('sk_test_abc');
    expect(presentedApiKey({ 'x-api-key': 'sk_test_xyz' })).toBe('sk_test_xyz');
    expect(presentedApiKey({ authorization: 'Bearer sk_test_abc', 'x-api-key': 'sk_test_abc' })).toBe('sk_test_abc');
  });

  it('answers invalid_api_key for two different keys, whose request it would be unclear', () => {
    const twoKeys = expect.objectContaining({ code: 'invalid_api_key', message: 'Two different API keys were sent (in Authorization headers or x-api-key); send one.' });
    expect(() => presentedApiKey({ authorization: 'Bearer sk_test_abc', 'x-api-key': 'sk_test_xyz' })).toThrow(twoKeys);
    // Node keeps the first of repeated Authorization headers; the raw headers still hold the second.
    const repeated = ['Authorization', 'Bearer sk_test_abc', 'authorization', 'Bearer sk_test_xyz'];
    expect(() => presentedApiKey({ authorization: 'Bearer sk_test_abc' }, repeated)).toThrow(twoKeys);
    expect(presentedApiKey({ authorization: 'Bearer sk_test_abc' }, ['Authorization', 'Bearer sk_test_abc', 'Host', 'x'])).toBe('sk_test_abc');
  });

  it('reads x-api-key when the Authorization header carries no key', () => {
    expect(presentedApiKey({ authorization: 'Bearer ', 'x-api-key': 'sk_test_xyz' })).toBe('sk_test_xyz');
  });

  it('answers missing_api_key when no key was sent', () => {
    expect(() => presentedApiKey({})).toThrow(expect.objectContaining({ code: 'missing_api_key' }));
    expect(() => presentedApiKey({ authorization: 'Bearer ' })).toThrow(expect.objectContaining({ code: 'missing_api_key' }));
    expect(() => presentedApiKey({ 'x-api-key': ' ' })).toThrow(expect.objectContaining({ code: 'missing_api_key' }));
  });

  it('answers invalid_api_key for another authorization scheme', () => {
    expect(() => presentedApiKey({ authorization: 'Basic c2tfdGVzdDo=' })).toThrow(expect.objectContaining({ code: 'invalid_api_key' }));
  });
});
