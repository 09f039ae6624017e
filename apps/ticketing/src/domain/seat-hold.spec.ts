import { DEFAULT_SEAT_HOLD_TTL_SECONDS, validSeatHoldRequest } from './seat-hold';

const request = (seat_ids: string[]) => ({ event_id: 'evt_1', seat_ids, ttl_seconds: 0 });

describe('validSeatHoldRequest', () => {
  it('takes distinct seat ids, a default TTL and a sale by default', () => {
    expect(validSeatHoldRequest(request(['Stalls:A:1', 'Stalls:A:2']))).toEqual({
      event_id: 'evt_1',
      seat_ids: ['Stalls:A:1', 'Stalls:A:2'],
      ttl_seconds: DEFAULT_SEAT_HOLD_TTL_SECONDS,
      purpose: 'sale',
    });
  });

  it('matches seat ids composed (NFC), as catalog stores labels: an accent typed apart is the same seat', () => {
    expect(validSeatHoldRequest(request(['Loge\u0301:A:1'])).seat_ids).toEqual(['Log\u00e9:A:1']);
    expect(() => validSeatHoldRequest(request(['Log\u00e9:A:1', 'Loge\u0301:A:1']))).toThrow(
      expect.objectContaining({ code: 'parameter_invalid', param: 'seats[1]', message: "seats[1] names seat 'Log\u00e9:A:1' a second time." }),
    );
  });

  it('refuses a seat id not of the form <section>:<row>:<seat>, naming it', () => {
    expect(() => validSeatHoldRequest(request(['Stalls:A:1', 'Stalls:A']))).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'seats[1]' }));
  });
});
