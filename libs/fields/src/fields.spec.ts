import { ApiError } from '@ticketing/errors';
import { assertOrdered, dateTime, integerInRange, optionalDateTime, optionalText, requiredText } from './fields';

describe('requiredText', () => {
  it('trims and accepts 1 to maxLength characters after trimming', () => {
    expect(requiredText('  hello  ', 'name', 5)).toBe('hello');
    expect(requiredText('a', 'name', 5)).toBe('a');
    expect(requiredText(`  ${'x'.repeat(5)}  `, 'name', 5)).toBe('xxxxx');
  });

  it('counts characters, as JSON Schema and PostgreSQL do, not UTF-16 units: an emoji is one', () => {
    expect(requiredText('🎟'.repeat(5), 'name', 5)).toBe('🎟'.repeat(5));
    expect(() => requiredText('🎟'.repeat(6), 'name', 5)).toThrow(expect.objectContaining({ code: 'parameter_invalid' }));
  });

  it.each(['', '   ', '\t\n', 'x'.repeat(6)])('refuses %p naming the parameter and its bounds', (value) => {
    expect(() => requiredText(value, 'venue.name', 5)).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'venue.name', status: 400, message: 'venue.name must be 1 to 5 characters.' }),
    );
  });
});

describe('optionalText', () => {
  it('reads empty or blank as null', () => {
    expect(optionalText('', 'description', 10)).toBeNull();
    expect(optionalText('   ', 'description', 10)).toBeNull();
  });

  it('trims a given value and applies the same bounds as requiredText', () => {
    expect(optionalText(' text ', 'description', 10)).toBe('text');
    expect(optionalText('x'.repeat(10), 'description', 10)).toBe('x'.repeat(10));
    expect(() => optionalText('x'.repeat(11), 'description', 10)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'description' }));
  });
});

describe('dateTime', () => {
  it('parses ISO 8601 date-times, with or without an offset', () => {
    expect(dateTime('2027-06-01T19:30:00Z', 'starts_at').toISOString()).toBe('2027-06-01T19:30:00.000Z');
    expect(dateTime('2027-06-01T21:30:00+02:00', 'starts_at').toISOString()).toBe('2027-06-01T19:30:00.000Z');
    expect(dateTime('2027-06-01T19:30:00.250Z', 'starts_at').getTime()).toBe(Date.UTC(2027, 5, 1, 19, 30, 0, 250));
    expect(dateTime('2028-02-29T00:00:00Z', 'starts_at').toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it.each(['', 'next friday', 'not-a-date', '1', 'June 1, 2027', '2027-06-01', '2027-06-01T19:30:00', '2027-02-30T00:00:00Z', '2027-13-01T00:00:00Z', '2027-06-01T25:00:00Z'])('refuses %p naming the parameter', (value) => {
    expect(() => dateTime(value, 'sales_end_at')).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'sales_end_at', message: 'sales_end_at must be an ISO 8601 date-time, e.g. 2027-06-01T19:30:00Z.' }),
    );
  });

  it.each(['0000-01-01T00:00:00Z', '0001-01-01T00:59:59+01:00', '9999-12-31T23:59:59-01:00'])('refuses %p, which no service can store', (value) => {
    expect(() => dateTime(value, 'starts_at')).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'starts_at', message: 'starts_at must be a date-time from year 0001 to 9999 in UTC.' }),
    );
  });

  it('takes the first and last instants every service can store', () => {
    expect(dateTime('0001-01-01T00:00:00Z', 'starts_at').toISOString()).toBe('0001-01-01T00:00:00.000Z');
    expect(dateTime('9999-12-31T23:59:59.999Z', 'starts_at').toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });
});

describe('optionalDateTime', () => {
  it('reads empty as null and parses anything else like dateTime', () => {
    expect(optionalDateTime('', 'ends_at')).toBeNull();
    expect(optionalDateTime('2027-06-01T23:00:00Z', 'ends_at')?.toISOString()).toBe('2027-06-01T23:00:00.000Z');
    expect(() => optionalDateTime('tomorrow', 'ends_at')).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'ends_at' }));
    // Blank is not empty: it is a bad date, not "not given".
    expect(() => optionalDateTime(' ', 'ends_at')).toThrow(expect.objectContaining({ param: 'ends_at' }));
  });
});

describe('integerInRange', () => {
  it('accepts whole numbers within the bounds, both inclusive', () => {
    expect(integerInRange(1, 'quantity', 1, 10)).toBe(1);
    expect(integerInRange(5, 'quantity', 1, 10)).toBe(5);
    expect(integerInRange(10, 'quantity', 1, 10)).toBe(10);
    expect(integerInRange(0, 'price', 0, 0)).toBe(0);
    expect(integerInRange(2.0, 'quantity', 1, 10)).toBe(2);
  });

  it.each([0, 11, -1, 1.5, 9.999, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('refuses %p', (value) => {
    expect(() => integerInRange(value, 'quantity', 1, 10)).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'quantity', message: 'quantity must be a whole number from 1 to 10.' }),
    );
  });
});

describe('assertOrdered', () => {
  const start = new Date('2027-06-01T10:00:00Z');
  const later = new Date('2027-06-01T10:00:01Z');

  it('accepts an end after the start, or either one missing', () => {
    expect(() => assertOrdered(start, later, 'sales_end_at', 'sales_start_at')).not.toThrow();
    expect(() => assertOrdered(start, null, 'sales_end_at', 'sales_start_at')).not.toThrow();
    expect(() => assertOrdered(null, start, 'sales_end_at', 'sales_start_at')).not.toThrow();
    expect(() => assertOrdered(null, null, 'sales_end_at', 'sales_start_at')).not.toThrow();
  });

  it('refuses an end equal to or before the start, naming the end parameter', () => {
    for (const end of [new Date(start.getTime()), new Date(start.getTime() - 1)]) {
      expect(() => assertOrdered(start, end, 'sales_end_at', 'sales_start_at')).toThrow(
        expect.objectContaining({ code: 'parameter_invalid', param: 'sales_end_at', message: 'sales_end_at must be after sales_start_at.' }),
      );
    }
    expect(() => assertOrdered(later, start, 'sales_end_at', 'sales_start_at')).toThrow(ApiError);
  });
});
