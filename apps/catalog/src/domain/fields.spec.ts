import { currencyCode } from './fields';

describe('currencyCode', () => {
  it('upper-cases ISO 4217 codes', () => {
    expect(currencyCode('eur')).toBe('EUR');
    expect(currencyCode('Usd')).toBe('USD');
    expect(currencyCode('JPY')).toBe('JPY');
  });

  it.each(['', 'EU', 'EURO', 'E1R', ' EUR', 'EUR ', '€€€', 'QQQ', 'abc', 'XXX'])('refuses %p naming currency by default', (value) => {
    expect(() => currencyCode(value)).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'currency', message: 'currency must be an ISO 4217 currency code such as EUR.' }),
    );
  });

  it('names the parameter it was given', () => {
    expect(() => currencyCode('EURO', 'amount.currency')).toThrow(expect.objectContaining({ param: 'amount.currency' }));
  });
});
