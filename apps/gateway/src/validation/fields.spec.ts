import { currency } from './fields';

describe('currency', () => {
  it.each(['EUR', 'usd', 'Jpy', 'CHF'])('accepts the ISO 4217 code %p', (code) => {
    expect(currency.safeParse(code)).toEqual({ success: true, data: code });
  });

  it.each(['QQQ', 'ABC', 'XXX', 'EURO', 'EU', ' EUR', '€€€', ''])('refuses %p', (code) => {
    expect(currency.safeParse(code).error?.issues).toEqual([expect.objectContaining({ message: 'must be an ISO 4217 currency code such as EUR' })]);
  });
});
