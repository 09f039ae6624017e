import { compareRoutePaths } from './route-order';

describe('compareRoutePaths', () => {
  it('puts a static segment before a parameter at the first difference', () => {
    expect(compareRoutePaths('/v1/events/deliveries', '/v1/events/{id}')).toBeLessThan(0);
    expect(compareRoutePaths('/v1/events/{id}', '/v1/events/deliveries')).toBeGreaterThan(0);
    expect(compareRoutePaths('/v1/events/deliveries/{id}/replay', '/v1/events/{id}/queue/join')).toBeLessThan(0);
  });

  it('is a total order: equal only for the same path', () => {
    expect(compareRoutePaths('/v1/events', '/v1/events')).toBe(0);
    expect(compareRoutePaths('/v1/events', '/v1/events/{id}')).toBeLessThan(0);
    expect(compareRoutePaths('/v1/balance', '/v1/payouts')).toBeLessThan(0);
  });
});
