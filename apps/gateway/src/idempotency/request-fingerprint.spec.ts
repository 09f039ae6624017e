import { canonicalJson, requestFingerprint } from './request-fingerprint';

describe('request fingerprint', () => {
  it('ignores the order of object keys at every level, but not of array items', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(requestFingerprint('POST', '/v1/events', { name: 'x', starts_at: 'y' })).toBe(requestFingerprint('POST', '/v1/events', { starts_at: 'y', name: 'x' }));
    expect(requestFingerprint('POST', '/v1/x', { list: [1, 2] })).not.toBe(requestFingerprint('POST', '/v1/x', { list: [2, 1] }));
  });

  it('tells apart another path, method or body', () => {
    const base = requestFingerprint('POST', '/v1/events', { name: 'x' });
    expect(requestFingerprint('POST', '/v1/discounts', { name: 'x' })).not.toBe(base);
    expect(requestFingerprint('PATCH', '/v1/events', { name: 'x' })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/events', { name: 'y' })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/events', undefined)).toBe(requestFingerprint('POST', '/v1/events', {}));
  });
});
