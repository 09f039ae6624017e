import { currency, dateTime } from './fields';

describe('currency', () => {
  it.each(['EUR', 'usd', 'Jpy', 'CHF'])('accepts the ISO 4217 code %p', (code) => {
    expect(currency.safeParse(code)).toEqual({ success: true, data: code });
  });

  it.each(['QQQ', 'ABC', 'XXX', 'EURO', 'EU', ' EUR', '€€€', ''])('refuses %p', (code) => {
    expect(currency.safeParse(code).error?.issues).toEqual([expect.objectContaining({ message: 'must be an ISO 4217 currency code such as EUR' })]);
  });
});

describe('dateTime', () => {
  it.each(['2027-06-01T19:30:00Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '0001-01-01T00:59:59-01:00'])('accepts %p', (value) => {
    expect(dateTime.safeParse(value).success).toBe(true);
  });

  it.each(['0000-01-01T00:00:00Z', '0001-01-01T00:59:59+01:00', '9999-12-31T23:59:59-01:00'])('refuses %p, outside years 0001 to 9999 in UTC', (value) => {
    expect(dateTime.safeParse(value).error?.issues).toEqual([expect.objectContaining({ message: 'must be a date-time from year 0001 to 9999 in UTC' })]);
  });
});
