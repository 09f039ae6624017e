import { waitFor } from '@ticketing/testing';
import { as, createAccount, type ApiResponse } from './support/api';
import type { Client } from './support/lists';
import { onSale, PRICE, sale } from './support/on-sale';

/** A tier on sale whose event has its waiting room enabled at `rate` admissions a minute, once ticketing has heard. */
async function onSaleBehindRoom(api: Client, rate: number): Promise<{ eventId: string; tierId: string }> {
  const { eventId, tierId } = await onSale(api);
  expect((await api.patch(`/v1/events/${eventId}`, { waiting_room: { enabled: true, admission_rate_per_minute: rate } })).status).toBe(200);
  // Ticketing learns of the room from catalog's event messages (decision 0034).
  await waitFor(`waiting room of ${eventId}`, async () => ((await api.get(`/v1/events/${eventId}/queue`)).status === 200 ? true : undefined));
  return { eventId, tierId };
}

/** A seated tier of two seats, Stalls:A:1 and Stalls:A:2, its event's room enabled at one admission a minute, once ticketing keeps holds out. */
async function seatedBehindRoom(api: Client): Promise<{ eventId: string; tierId: string }> {
  const { eventId, tierId } = await onSale(api, { seated: true, capacity: 2 });
  const seats = [{ label: '1', tier_id: tierId }, { label: '2', tier_id: tierId }];
  expect((await api.put(`/v1/events/${eventId}/seatmap`, { sections: [{ label: 'Stalls', rows: [{ label: 'A', seats }] }] })).status).toBe(200);
  expect((await api.patch(`/v1/events/${eventId}`, { waiting_room: { enabled: true, admission_rate_per_minute: 1 } })).status).toBe(200);
  // Ticketing hears of the room a moment later. Until then a hold of a seat the map lacks is
  // refused for the seat, holding nothing; from then on, for the admission.
  const heldOut = async () => (await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:Z:9'] })).body.error?.code === 'admission_token_required';
  await waitFor('the room to keep holds out', async () => ((await heldOut()) ? true : undefined));
  return { eventId, tierId };
}

const oneTicket = (tierId: string, fields: Record<string, unknown> = {}) =>
  sale(tierId, { quantity: 1, payment: { type: 'external', reference: 'order-1', amount: PRICE }, ...fields });

describe('waiting room through the gateway', () => {
  it('queues buyers first in, first out, and lets each admitted one issue once', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSaleBehindRoom(api, 1);
    const first = await api.post(`/v1/events/${eventId}/queue/join`, {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: expect.stringMatching(/^qen_/), object: 'queue_entry', event_id: eventId, status: 'admitted', position: null, admission_token: expect.any(String) });
    const waiting = [];
    for (let index = 0; index < 3; index++) waiting.push((await api.post(`/v1/events/${eventId}/queue/join`, {})).body);
    expect(waiting.map((entry) => [entry.status, entry.position, entry.admission_token])).toEqual([
      ['waiting', 1, null],
      ['waiting', 2, null],
      ['waiting', 3, null],
    ]);
    const queue = await api.get(`/v1/events/${eventId}/queue?entry_id=${waiting[1].id}`);
    expect(queue.body).toMatchObject({ object: 'queue', event_id: eventId, length: 3, admitted: 1, admission_rate_per_minute: 1, entry: { id: waiting[1].id, position: 2 } });

    const refusals: Array<[Record<string, unknown>, string]> = [
      [{}, 'admission_token_required'],
      [{ admission_token: 'not-a-token' }, 'admission_token_invalid'],
      [{ admission_token: `${first.body.admission_token.slice(0, -2)}xx` }, 'admission_token_invalid'],
    ];
    for (const [fields, code] of refusals) {
      const refused = await api.post(`/v1/events/${eventId}/tickets`, oneTicket(tierId, fields));
      expect({ fields, status: refused.status, code: refused.body.error.code }).toEqual({ fields, status: 403, code });
    }
    const issued = await api.post(`/v1/events/${eventId}/tickets`, oneTicket(tierId, { admission_token: first.body.admission_token }));
    expect(issued.status).toBe(200);
    const reused = await api.post(`/v1/events/${eventId}/tickets`, oneTicket(tierId, { admission_token: first.body.admission_token, customer: { email: 'bo@example.com' } }));
    expect(reused.status).toBe(403);
    expect(reused.body.error.code).toBe('admission_token_used');
    expect((await api.get(`/v1/events/${eventId}/tiers`)).body.data[0]).toMatchObject({ sold: 1, held: 0 });

    const left = await api.post(`/v1/events/${eventId}/queue/leave`, { entry_id: waiting[0].id });
    expect(left.body).toMatchObject({ status: 'left', position: null });
    expect((await api.get(`/v1/events/${eventId}/queue?entry_id=${waiting[2].id}`)).body.entry.position).toBe(2);
  });

  it('holds seats only for an admitted buyer, whose token then sells the hold', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await seatedBehindRoom(api);
    const holdSeats = (fields: Record<string, unknown> = {}) => api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1', 'Stalls:A:2'], ...fields });
    // Buyers who never queued would otherwise hold every seat before the first admitted one's turn.
    const unqueued = await holdSeats();
    expect({ status: unqueued.status, code: unqueued.body.error?.code }).toEqual({ status: 403, code: 'admission_token_required' });
    const forged = await holdSeats({ admission_token: 'not-a-token' });
    expect({ status: forged.status, code: forged.body.error?.code }).toEqual({ status: 403, code: 'admission_token_invalid' });

    const admitted = (await api.post(`/v1/events/${eventId}/queue/join`, {})).body;
    expect(admitted.status).toBe('admitted');
    const hold = await holdSeats({ admission_token: admitted.admission_token });
    expect(hold.status).toBe(200);
    const issued = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId, { seat_hold_id: hold.body.id, admission_token: admitted.admission_token }));
    expect(issued.status).toBe(200);
    expect(issued.body.tickets.map((ticket: { seat: string }) => ticket.seat)).toEqual(['Stalls:A:1', 'Stalls:A:2']);
  });

  it('holds seats for comps without an admission, which only a comp can take, while the room keeps buyers out', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await seatedBehindRoom(api);
    const forComps = await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1', 'Stalls:A:2'], purpose: 'comp' });
    expect({ status: forComps.status, purpose: forComps.body.purpose }).toEqual({ status: 200, purpose: 'comp' });
    const admitted = (await api.post(`/v1/events/${eventId}/queue/join`, {})).body;
    const sold = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId, { seat_hold_id: forComps.body.id, admission_token: admitted.admission_token }));
    expect({ status: sold.status, code: sold.body.error?.code, param: sold.body.error?.param }).toEqual({ status: 400, code: 'parameter_invalid', param: 'seat_hold_id' });
    const comped = await api.post(`/v1/events/${eventId}/comps`, { tier_id: tierId, quantity: 2, seat_hold_id: forComps.body.id, customer: { email: 'guest@example.com' }, reason: 'Press' });
    expect(comped.status).toBe(200);
    expect(comped.body.tickets.map((ticket: { seat: string; price: number }) => [ticket.seat, ticket.price])).toEqual([
      ['Stalls:A:1', 0],
      ['Stalls:A:2', 0],
    ]);
    const unknownPurpose = await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1'], purpose: 'gift' });
    expect({ status: unknownPurpose.status, param: unknownPurpose.body.error?.param }).toEqual({ status: 400, param: 'purpose' });
  });

  it('asks for an admission token from the moment the room is enabled, and opens the queue, before ticketing has heard of it', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSale(api);
    // Sold without a room: ticketing now believes, for a moment, that this event has none.
    expect((await api.post(`/v1/events/${eventId}/tickets`, oneTicket(tierId))).status).toBe(200);
    expect((await api.patch(`/v1/events/${eventId}`, { waiting_room: { enabled: true, admission_rate_per_minute: 60 } })).status).toBe(200);
    const refused = await api.post(`/v1/events/${eventId}/tickets`, oneTicket(tierId, { customer: { email: 'bo@example.com' } }));
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 403, code: 'admission_token_required' });
    expect((await api.get(`/v1/events/${eventId}/tiers`)).body.data[0]).toMatchObject({ sold: 1, held: 0 });
    // What the refusal says to do works at once.
    const admitted = await api.post(`/v1/events/${eventId}/queue/join`, {});
    expect({ status: admitted.status, entry: admitted.body.status }).toEqual({ status: 200, entry: 'admitted' });
    const issued = await api.post(`/v1/events/${eventId}/tickets`, oneTicket(tierId, { customer: { email: 'bo@example.com' }, admission_token: admitted.body.admission_token }));
    expect(issued.status).toBe(200);
  });

  it('answers 409 waiting_room_disabled for an event without one, and 404 for another account’s', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSale(api);
    const refused = await api.post(`/v1/events/${eventId}/queue/join`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('waiting_room_disabled');
    expect((await api.post(`/v1/events/${eventId}/tickets`, oneTicket(tierId))).status).toBe(200);

    const roomed = await onSaleBehindRoom(api, 60);
    const stranger = as((await createAccount()).secret_key);
    const notFound = await stranger.post(`/v1/events/${roomed.eventId}/queue/join`, {});
    expect({ status: notFound.status, code: notFound.body.error?.code }).toEqual({ status: 404, code: 'resource_missing' });
  });

  it('takes no newcomer once the event is canceled; an entry already in can still read its place and leave', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId } = await onSaleBehindRoom(api, 1);
    await api.post(`/v1/events/${eventId}/queue/join`, {});
    const inside = (await api.post(`/v1/events/${eventId}/queue/join`, {})).body;
    expect((await api.patch(`/v1/events/${eventId}`, { status: 'canceled' })).status).toBe(200);
    // Ticketing hears of the cancellation through catalog's messages (decision 0034); joins in that moment still queue.
    const refused = await waitFor('the room to refuse newcomers', async () => {
      const answer = await api.post(`/v1/events/${eventId}/queue/join`, {});
      return answer.status === 409 ? answer : undefined;
    });
    expect(refused.body.error).toMatchObject({ code: 'event_not_on_sale', message: "The event is canceled; only a published event's waiting room takes newcomers." });
    expect((await api.get(`/v1/events/${eventId}/queue?entry_id=${inside.id}`)).body).toMatchObject({ entry: { id: inside.id, status: 'waiting', position: 1 } });
    expect((await api.post(`/v1/events/${eventId}/queue/leave`, { entry_id: inside.id })).body).toMatchObject({ id: inside.id, status: 'left' });
  });

  it('refuses another account’s queue entries, to read or to leave: they keep their place and their admission', async () => {
    const owner = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSaleBehindRoom(owner, 1);
    const admitted = (await owner.post(`/v1/events/${eventId}/queue/join`, {})).body;
    const waiting = (await owner.post(`/v1/events/${eventId}/queue/join`, {})).body;
    expect([admitted.status, waiting.status, waiting.position]).toEqual(['admitted', 'waiting', 1]);
    const stranger = as((await createAccount()).secret_key);
    const theirs = await onSaleBehindRoom(stranger, 1);
    const refusals: Array<[string, () => Promise<ApiResponse>, Record<string, unknown>]> = [];
    for (const entry of [admitted, waiting]) {
      refusals.push(
        [`read ${entry.status} under its event`, () => stranger.get(`/v1/events/${eventId}/queue?entry_id=${entry.id}`), { status: 404, code: 'resource_missing' }],
        [`leave ${entry.status} under its event`, () => stranger.post(`/v1/events/${eventId}/queue/leave`, { entry_id: entry.id }), { status: 404, code: 'resource_missing' }],
        [`read ${entry.status} under their event`, () => stranger.get(`/v1/events/${theirs.eventId}/queue?entry_id=${entry.id}`), { status: 400, code: 'resource_missing', param: 'entry_id' }],
        [`leave ${entry.status} under their event`, () => stranger.post(`/v1/events/${theirs.eventId}/queue/leave`, { entry_id: entry.id }), { status: 400, code: 'resource_missing', param: 'entry_id' }],
      );
    }
    for (const [attempt, request, expected] of refusals) {
      const refused = await request();
      expect({ attempt, status: refused.status, code: refused.body.error?.code, param: refused.body.error?.param }).toEqual({ attempt, param: undefined, ...expected });
    }
    expect((await stranger.get(`/v1/events/${theirs.eventId}/queue`)).body).toMatchObject({ length: 0, admitted: 0 });

    const queue = (await owner.get(`/v1/events/${eventId}/queue?entry_id=${waiting.id}`)).body;
    expect(queue).toMatchObject({ length: 1, admitted: 1, entry: { id: waiting.id, status: 'waiting', position: 1 } });
    expect((await owner.get(`/v1/events/${eventId}/queue?entry_id=${admitted.id}`)).body.entry).toMatchObject({ id: admitted.id, status: 'admitted', admission_token: expect.any(String) });
    expect((await owner.post(`/v1/events/${eventId}/tickets`, oneTicket(tierId, { admission_token: admitted.admission_token }))).status).toBe(200);
  });

  it('gives an admission up when its entry leaves: its token no longer sells', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSaleBehindRoom(api, 60);
    const admitted = (await api.post(`/v1/events/${eventId}/queue/join`, {})).body;
    expect(admitted.status).toBe('admitted');
    expect((await api.post(`/v1/events/${eventId}/queue/leave`, { entry_id: admitted.id })).body).toMatchObject({ status: 'left' });
    const refused = await api.post(`/v1/events/${eventId}/tickets`, oneTicket(tierId, { admission_token: admitted.admission_token }));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'admission_token_invalid', message: expect.stringContaining('left the waiting room') });
    expect((await api.get(`/v1/events/${eventId}/tiers`)).body.data[0]).toMatchObject({ sold: 0, held: 0 });
  });
});
