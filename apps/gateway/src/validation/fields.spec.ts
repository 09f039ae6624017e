import { z } from 'zod';
import { clearableText, currency, dateTime, mapKey, text, upTo } from './fields';

describe('currency', () => {
  it.each(['EUR', 'usd', 'Jpy', 'CHF'])('accepts the ISO 4217 code %p', (code) => {
    expect(currency.safeParse(code)).toEqual({ success: true, data: code });
  });

  it.each(['QQQ', 'ABC', 'XXX', 'EURO', 'EU', ' EUR', '€€€', ''])('refuses %p', (code) => {
    expect(currency.safeParse(code).error?.issues).toEqual([expect.objectContaining({ message: 'must be an ISO 4217 currency code such as EUR' })]);
  });
});

describe('dateTime', () => {
  it.each(['2027-06-01T19:30:00Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '0001-01-01T00:59:59-01:00', '2027-06-01T19:30:00.123456789Z'])('accepts %p', (value) => {
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

  it('counts as blank a text of invisible characters only, such as a zero-width space, and keeps them beside visible ones', () => {
    for (const invisible of ['\u200b', '\u200d\u2060', ' \ufeff\u200e ', '\u00ad', '\u3164\u3164', '\u115f\u1160', '\uffa0', '\u2800', '\ufe0f']) expect(text(5).safeParse(invisible).error?.issues[0]?.message).toBe('must not be blank');
    expect(text(5).safeParse('Zoë\u200d').success).toBe(true);
    expect(text(5).safeParse('한글').success).toBe(true);
  });

  it('refuses control characters, which a terminal or a log reading the name would obey', () => {
    for (const value of ['a\u001b[31mb', 'a\u0001b', 'a\u007fb', 'a\u0085b', 'two\nlines'])
      expect(text(20).safeParse(value).error?.issues[0]?.message).toBe('must not contain control characters (U+0000–U+001F, U+007F–U+009F)');
    expect(mapKey(40).safeParse('order\u0007').error?.issues[0]?.message).toBe('must not contain control characters');
  });
});

describe('upTo', () => {
  it('keeps tabs and line breaks in a longer text, and refuses other control characters', () => {
    expect(upTo(50).safeParse('Doors open at 7.\r\n\tBar inside.').success).toBe(true);
    expect(upTo(50).safeParse('bell\u0007').error?.issues[0]?.message).toBe('must not contain control characters other than tabs and line breaks');
  });
});
