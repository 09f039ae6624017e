import { createEventParser } from './event-parser';
import { TICKETING_SEAT_TOPIC } from './ticketing.events';

describe('createEventParser', () => {
  const parse = createEventParser(TICKETING_SEAT_TOPIC);
  const held = {
    id: 'msg_1',
    type: 'seat.held',
    account_id: 'acct_1',
    mode: 'test',
    occurred_at: '2027-01-01T00:00:00.000Z',
    request_id: 'req_1',
    data: { event_id: 'evt_1', seat_ids: ['A:1:1'], hold_id: 'hold_1' },
  };

  it('accepts an event that matches its type’s schema, keeping the request id', () => {
    expect(parse(held)).toEqual({ outcome: 'valid', event: held });
  });

  it('names the field of the payload that fails', () => {
    const parsed = parse({ ...held, data: { event_id: 'evt_1', seat_ids: [] } });
    expect(parsed.outcome).toBe('invalid');
    expect(parsed.outcome === 'invalid' && parsed.error).toMatch(/data\.seat_ids/);
    expect(parsed.outcome === 'invalid' && parsed.error).toMatch(/data\.hold_id/);
  });

  it('refuses what no consumer could store, rather than leaving its handler to fail every attempt: a NUL, a lone surrogate, year 0000, more seats than a hold takes', () => {
    const errorOf = (body: unknown) => {
      const parsed = parse(body);
      return parsed.outcome === 'invalid' ? parsed.error : parsed.outcome;
    };
    expect(errorOf({ ...held, data: { ...held.data, seat_ids: ['S:A:\u00005'] } })).toMatch(/NUL character[\s\S]*data\.seat_ids\.0/);
    expect(errorOf({ ...held, request_id: 'req_\ud800' })).toMatch(/lone surrogate[\s\S]*request_id/);
    expect(errorOf({ ...held, occurred_at: '0000-01-01T00:00:00Z' })).toMatch(/year 0001 to 9999[\s\S]*occurred_at/);
    expect(errorOf({ ...held, data: { ...held.data, seat_ids: Array.from({ length: 51 }, (_, seat) => `A:1:${seat + 1}`) } })).toMatch(/data\.seat_ids/);
    expect(parse({ ...held, data: { ...held.data, seat_ids: Array.from({ length: 50 }, (_, seat) => `A:1:${seat + 1}`) } }).outcome).toBe('valid');
  });

  it('refuses an envelope without a tenant', () => {
    const { account_id: _accountId, ...withoutAccount } = held;
    const parsed = parse(withoutAccount);
    expect(parsed.outcome === 'invalid' && parsed.error).toMatch(/account_id/);
  });

  it('refuses a body that is not an object', () => {
    expect(parse('seat.held').outcome).toBe('invalid');
  });

  it('reports a type the topic does not define, so newer producers do not break older consumers', () => {
    expect(parse({ ...held, type: 'seat.upgraded' })).toEqual({ outcome: 'unknown_type', type: 'seat.upgraded' });
  });
});
