import { RATE_LIMIT_PER_SECOND_MAX, validAccountName, validRateLimit } from './account';

describe('account rules', () => {
  it('trims names and refuses empty or overlong ones', () => {
    expect(validAccountName('  Acme ')).toBe('Acme');
    for (const bad of ['', '  ', 'x'.repeat(101)]) {
      expect(() => validAccountName(bad)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'name' }));
    }
  });

  it('accepts a whole, positive requests-per-second budget or null, and refuses anything else', () => {
    expect(validRateLimit(500)).toBe(500);
    expect(validRateLimit(null)).toBeNull();
    for (const bad of [0, -1, 2.5, RATE_LIMIT_PER_SECOND_MAX + 1, Number.NaN]) {
      expect(() => validRateLimit(bad)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'rate_limit_per_second' }));
    }
  });
});
