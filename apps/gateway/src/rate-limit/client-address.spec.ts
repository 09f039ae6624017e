import { clientAddress } from './client-address';

describe('client address a per-client limit counts', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64'],
    [undefined, 'unknown'],
  ])('counts %s as %s', (ip, expected) => {
    expect(clientAddress({ ip })).toBe(expected);
  });
});
