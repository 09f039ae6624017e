import { ApiError } from '@ticketing/errors';
import { reservationRefusal, settlementRefusal, validTtlSeconds, type CatalogReservation, type ReservationRequest } from './reservation';
import type { EventStatus } from './event-status';
import type { CatalogTier } from './tier';

const at = new Date('2027-03-01T12:00:00Z');
const tier: CatalogTier = {
  id: 'tier_1',
  mode: 'test',
  event_id: 'evt_1',
  name: 'GA',
  price: 1000,
  currency: 'EUR',
  capacity: 10,
  held: 4,
  sold: 5,
  sales_start_at: null,
  sales_end_at: null,
  min_per_order: 1,
  max_per_order: 4,
  seated: false,
  rank: 0,
  created_at: at,
  updated_at: at,
};
const request: ReservationRequest = { id: 'rsv_1', event_id: 'evt_1', tier_id: 'tier_1', kind: 'sale', quantity: 2, expires_at: at };
const codeOf = (error: ApiError | null) => error?.code;
const startsAt = new Date('2027-03-05T19:00:00Z');
const eventThat = (status: EventStatus, eventStartsAt = startsAt) => ({ status, startsAt: eventStartsAt });

describe('reservationRefusal', () => {
  it('names the first rule that fails, capacity last', () => {
    expect(reservationRefusal(request, { tier: null, event: null }, at)).toMatchObject({ code: 'resource_missing', status: 404, param: undefined });
    expect(reservationRefusal(request, { tier: null, event: eventThat('published') }, at)).toMatchObject({ code: 'resource_missing', status: 400, param: 'tier_id' });
    expect(codeOf(reservationRefusal(request, { tier, event: eventThat('draft') }, at))).toBe('event_not_on_sale');
    expect(codeOf(reservationRefusal(request, { tier: { ...tier, sales_start_at: new Date('2027-03-02T00:00:00Z') }, event: eventThat('published') }, at))).toBe('tier_not_on_sale');
    expect(codeOf(reservationRefusal(request, { tier: { ...tier, sales_end_at: at }, event: eventThat('published') }, at))).toBe('tier_not_on_sale');
    expect(reservationRefusal({ ...request, quantity: 5 }, { tier, event: eventThat('published') }, at)).toMatchObject({ code: 'parameter_invalid', param: 'quantity' });
    expect(reservationRefusal(request, { tier, event: eventThat('published') }, at)).toMatchObject({ code: 'sold_out', message: expect.stringContaining('has 1 left') });
    expect(reservationRefusal(request, { tier: { ...tier, held: 0, sold: 10 }, event: eventThat('published') }, at).message).toBe("Tier 'tier_1' is sold out.");
  });

  it('tells units held by orders in progress apart from units sold', () => {
    expect(reservationRefusal(request, { tier: { ...tier, held: 5 }, event: eventThat('published') }, at).message).toBe(
      "Tier 'tier_1' has none left to sell now. 5 more are held by orders in progress and go back on sale if not completed.",
    );
    expect(reservationRefusal(request, { tier: { ...tier, held: 1, sold: 8 }, event: eventThat('published') }, at).message).toBe(
      "Tier 'tier_1' has 1 left, fewer than the 2 asked for. 1 more is held by an order in progress and goes back on sale if not completed.",
    );
  });

  it('ends the sales of a tier without a sales end when its event starts', () => {
    const started = reservationRefusal(request, { tier, event: eventThat('published', at) }, at);
    expect(started).toMatchObject({ code: 'tier_not_on_sale', message: `Tier 'tier_1' is not on sale now: it sells until its event starts at ${at.toISOString()}.` });
    // A tier with its own end (door sales) sells past the start: the refusal falls through to capacity.
    const ownEnd = { ...tier, sales_end_at: new Date('2027-03-06T00:00:00Z') };
    expect(codeOf(reservationRefusal(request, { tier: ownEnd, event: eventThat('published', at) }, at))).toBe('sold_out');
  });

  it('holds comps only to the event being open and the capacity', () => {
    const comp = { ...request, kind: 'comp' as const, quantity: 9 };
    const closedTier = { ...tier, sales_end_at: new Date('2020-01-01T00:00:00Z') };
    expect(codeOf(reservationRefusal(comp, { tier: closedTier, event: eventThat('draft') }, at))).toBe('sold_out');
    expect(codeOf(reservationRefusal(comp, { tier: closedTier, event: eventThat('canceled') }, at))).toBe('event_not_on_sale');
    expect(codeOf(reservationRefusal(comp, { tier: closedTier, event: eventThat('completed') }, at))).toBe('event_not_on_sale');
  });
});

describe('settlementRefusal', () => {
  const reservation: CatalogReservation = { ...request, mode: 'test', status: 'held', created_at: at, committed_at: null, released_at: null };

  it('treats the same settlement as a replay and refuses the other', () => {
    const committed = { ...reservation, status: 'committed' as const, committed_at: at };
    const released = { ...reservation, status: 'released' as const, released_at: new Date(at.getTime() - 1000), expires_at: at };
    expect(settlementRefusal(committed, 'committed')).toBeNull();
    expect(settlementRefusal(released, 'released')).toBeNull();
    expect(codeOf(settlementRefusal(committed, 'released'))).toBe('reservation_committed');
    expect(settlementRefusal(released, 'committed')).toMatchObject({ code: 'reservation_released', message: expect.not.stringContaining('expired') });
    expect(settlementRefusal({ ...released, released_at: at }, 'committed')?.message).toContain('when it expired');
  });
});

describe('validTtlSeconds', () => {
  it('defaults 0 to ten minutes and bounds the rest to an hour', () => {
    expect(validTtlSeconds(0)).toBe(600);
    expect(validTtlSeconds(3600)).toBe(3600);
    expect(() => validTtlSeconds(3601)).toThrow(ApiError);
    expect(() => validTtlSeconds(-1)).toThrow(ApiError);
  });
});
