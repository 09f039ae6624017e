import { ApiError } from '@ticketing/errors';
import { validEventName, validStartsAt } from './event';

describe('event rules', () => {
  it('trims names and refuses empty or overlong ones, naming the parameter', () => {
    expect(validEventName('  Summer Fest ')).toBe('Summer Fest');
    for (const bad of ['', '   ', 'x'.repeat(201)]) {
      expect(() => validEventName(bad)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'name' }));
    }
  });

  it('parses ISO 8601 start times and refuses anything else', () => {
    expect(validStartsAt('2027-06-01T19:30:00Z').toISOString()).toBe('2027-06-01T19:30:00.000Z');
    expect(() => validStartsAt('next friday')).toThrow(ApiError);
    expect(() => validStartsAt('')).toThrow(expect.objectContaining({ param: 'starts_at' }));
  });
});
