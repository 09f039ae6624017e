import { validAccountName } from './account';

describe('account rules', () => {
  it('trims names and refuses empty or overlong ones', () => {
    expect(validAccountName('  Acme ')).toBe('Acme');
    for (const bad of ['', '  ', 'x'.repeat(101)]) {
      expect(() => validAccountName(bad)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'name' }));
    }
  });
});
