import { z } from 'zod';
import { clearableText, currency, dateTime, text } from './fields';

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

describe('text', () => {
  it('counts characters (code points), as the document’s maxLength means, so an emoji is one', () => {
    expect(text(5).safeParse(' 🎟🎟🎟🎟🎟 ')).toEqual({ success: true, data: '🎟🎟🎟🎟🎟' });
    expect(text(5).safeParse('🎟'.repeat(6)).error?.issues[0]?.message).toBe('must be at most 5 characters');
    expect(text(5).safeParse('   ').error?.issues[0]?.message).toBe('must not be blank');
    expect(text(5).safeParse('').error?.issues[0]?.message).toBe('must not be blank');
    expect(clearableText(3).safeParse('🎟🎟🎟').success).toBe(true);
    expect(clearableText(3).safeParse('🎟🎟🎟🎟').error?.issues[0]?.message).toBe('must be at most 3 characters');
  });

  it('documents its bounds as minLength and maxLength', () => {
    expect(z.toJSONSchema(text(5))).toMatchObject({ type: 'string', minLength: 1, maxLength: 5 });
  });
});
