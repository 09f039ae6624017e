import type { SeatStatus } from '@ticketing/contracts';
import { waitFor } from '@ticketing/testing';
import { as, createAccount, type ApiResponse } from './support/api';
import { queryServiceDatabase } from './support/databases';
import type { Client } from './support/lists';

/** A published (or draft) event with one seated tier and its seat map: rows A and B of four seats in "Stalls". */
async function seatedEvent(api: Client, status: 'published' | 'draft' = 'published'): Promise<{ eventId: string; tierId: string }> {
  const event = (await api.post('/v1/events', { name: 'Seated Night', starts_at: '2099-10-01T19:30:00Z', currency: 'EUR' })).body;
  const tier = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'Stalls', price: 5000, capacity: 8, seated: true })).body;
  const seats = (labels: string[]) => labels.map((label) => ({ label, tier_id: tier.id }));
  const layout = { sections: [{ label: 'Stalls', rows: [{ label: 'A', seats: seats(['1', '2', '3', '4']) }, { label: 'B', seats: seats(['1', '2', '3', '4']) }] }] };
  expect((await api.put(`/v1/events/${event.id}/seatmap`, layout)).status).toBe(200);
  if (status === 'published') expect((await api.patch(`/v1/events/${event.id}`, { status: 'published' })).status).toBe(200);
  return { eventId: event.id, tierId: tier.id };
}

/** Catalog's seat map follows ticketing's seat events through Kafka: wait until it shows `expected`. */
async function seatMapShows(api: Client, eventId: string, expected: Record<string, SeatStatus>): Promise<void> {
  await waitFor(`seat map of ${eventId} showing ${JSON.stringify(expected)}`, async () => {
    const map = (await api.get(`/v1/events/${eventId}/seatmap`)).body;
    const current: Record<string, SeatStatus> = Object.fromEntries(
      map.sections.flatMap((section: { rows: Array<{ seats: Array<{ id: string; status: SeatStatus }> }> }) => section.rows.flatMap((row) => row.seats.map((seat) => [seat.id, seat.status]))),
    );
    return Object.entries(expected).every(([seat, status]) => current[seat] === status) || undefined;
  });
}

describe('seat holds through the gateway', () => {
  it('holds seats all or none, shows them held on the seat map, and releases them', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await seatedEvent(api);
    const held = await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1', 'Stalls:A:2'], ttl_seconds: 300 });
    expect(held.status).toBe(200);
    expect(held.body).toEqual({
      id: expect.stringMatching(/^hold_/),
      object: 'seat_hold',
      livemode: false,
      event_id: eventId,
      seats: [
        { id: 'Stalls:A:1', tier_id: tierId },
        { id: 'Stalls:A:2', tier_id: tierId },
      ],
      status: 'active',
      purpose: 'sale',
      expires_at: expect.any(String),
      created_at: expect.any(String),
      released_at: null,
    });
    expect(Date.parse(held.body.expires_at) - Date.parse(held.body.created_at)).toBe(300_000);
    await seatMapShows(api, eventId, { 'Stalls:A:1': 'held', 'Stalls:A:2': 'held', 'Stalls:A:3': 'available' });

    const overlapping = await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:2', 'Stalls:A:3'] });
    expect(overlapping.status).toBe(409);
    expect(overlapping.body.error).toMatchObject({ code: 'seats_unavailable', param: 'seats', message: "Seat 'Stalls:A:2' is already taken; no seat was held." });
    expect((await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:3'] })).status).toBe(200);

    const released = await api.delete(`/v1/events/${eventId}/seats/hold/${held.body.id}`);
    expect(released.body).toEqual({ id: held.body.id, object: 'seat_hold', deleted: true });
    expect((await api.delete(`/v1/events/${eventId}/seats/hold/${held.body.id}`)).status).toBe(200);
    await seatMapShows(api, eventId, { 'Stalls:A:1': 'available', 'Stalls:A:2': 'available', 'Stalls:A:3': 'held' });
    expect((await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:2'] })).status).toBe(200);
  });

  it('gives a seat to exactly one of many buyers asking at once', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId } = await seatedEvent(api);
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:B:1', 'Stalls:B:2'] })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409 && answer.body.error.code === 'seats_unavailable')).toHaveLength(19);
  });

  it('refuses bad holds with a clear error, and holds nothing', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId } = await seatedEvent(api);
    const refusals: Array<[unknown, number, string, string?]> = [
      [{}, 400, 'parameter_missing', 'seats'],
      [{ seats: [] }, 400, 'parameter_missing', 'seats'],
      [{ seats: ['Stalls:Z:9'] }, 400, 'parameter_invalid', 'seats'],
      [{ seats: ['Stalls:A:1', 'Stalls:A:1'] }, 400, 'parameter_invalid', 'seats[1]'],
      [{ seats: ['Stalls:A:1'], ttl_seconds: 1801 }, 400, 'parameter_invalid', 'ttl_seconds'],
      [{ seats: ['Stalls:A:1'], ttl_seconds: 0 }, 400, 'parameter_invalid', 'ttl_seconds'],
    ];
    for (const [body, status, code, param] of refusals) {
      const refused = await api.post(`/v1/events/${eventId}/seats/hold`, body);
      expect({ body, status: refused.status, code: refused.body.error?.code, param: refused.body.error?.param }).toEqual({ body, status, code, param });
    }
    expect((await api.delete(`/v1/events/${eventId}/seats/hold/hold_01JD3WE2F4H6K8M0P2R4T6V8X0`)).status).toBe(404);
    expect((await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1', 'Stalls:B:4'] })).status).toBe(200);
  });

  it('holds no seat of a canceled event, whose seat map stays as it was; a draft event’s seats can be held for comps, not for a sale (decision 0033)', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId } = await seatedEvent(api);
    expect((await api.patch(`/v1/events/${eventId}`, { status: 'canceled' })).status).toBe(200);
    const refused = await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1'] });
    expect({ status: refused.status, error: refused.body.error }).toMatchObject({
      status: 409,
      error: { code: 'event_not_on_sale', message: 'The event is canceled; it takes no more tickets.' },
    });
    await seatMapShows(api, eventId, { 'Stalls:A:1': 'available' });

    const draft = await seatedEvent(api, 'draft');
    const forSale = await api.post(`/v1/events/${draft.eventId}/seats/hold`, { seats: ['Stalls:A:1'] });
    expect({ status: forSale.status, error: forSale.body.error }).toMatchObject({ status: 409, error: { code: 'event_not_on_sale', message: 'The event is draft; only a published event sells tickets.' } });
    expect((await api.post(`/v1/events/${draft.eventId}/seats/hold`, { seats: ['Stalls:A:1'], purpose: 'comp' })).body).toMatchObject({ status: 'active', purpose: 'comp' });
  });

  it('keeps accounts apart: another account can neither see nor release a hold', async () => {
    const owner = as((await createAccount()).secret_key);
    const { eventId } = await seatedEvent(owner);
    const held = await owner.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:4'] });
    const stranger = as((await createAccount()).secret_key);
    expect((await stranger.delete(`/v1/events/${eventId}/seats/hold/${held.body.id}`)).status).toBe(404);
    expect((await stranger.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1'] })).status).toBe(404);
  });

  describe('seated issuance', () => {
    const PRICE = 5000;
    const seatedSale = (tierId: string, holdId: string | undefined, quantity: number, email = 'ann@example.com') => ({
      tier_id: tierId,
      quantity,
      ...(holdId ? { seat_hold_id: holdId } : {}),
      customer: { email },
      payment: { type: 'external', reference: `order-${holdId}`, amount: quantity * PRICE },
    });

    it('sells a seated tier only from a seat hold: the tickets carry its seats, which the seat map shows sold', async () => {
      const api = as((await createAccount()).secret_key);
      const { eventId, tierId } = await seatedEvent(api);
      const without = await api.post(`/v1/events/${eventId}/tickets`, seatedSale(tierId, undefined, 1));
      expect(without.status).toBe(400);
      expect(without.body.error).toMatchObject({ code: 'parameter_missing', param: 'seat_hold_id' });

      const hold = (await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:B:3', 'Stalls:B:4'] })).body;
      const wrongQuantity = await api.post(`/v1/events/${eventId}/tickets`, seatedSale(tierId, hold.id, 1));
      expect(wrongQuantity.body.error).toMatchObject({ code: 'parameter_invalid', param: 'quantity', message: expect.stringContaining('must be 2') });

      const issued = await api.post(`/v1/events/${eventId}/tickets`, seatedSale(tierId, hold.id, 2));
      expect(issued.status).toBe(200);
      expect(issued.body.tickets.map((ticket: { seat: string }) => ticket.seat)).toEqual(['Stalls:B:3', 'Stalls:B:4']);
      expect((await api.get(`/v1/tickets/${issued.body.tickets[0].id}`)).body.seat).toBe('Stalls:B:3');
      await seatMapShows(api, eventId, { 'Stalls:B:3': 'sold', 'Stalls:B:4': 'sold' });
      expect((await api.get(`/v1/events/${eventId}/tiers`)).body.data[0]).toMatchObject({ sold: 2, held: 0 });

      const reused = await api.post(`/v1/events/${eventId}/tickets`, seatedSale(tierId, hold.id, 2, 'bo@example.com'));
      expect(reused.status).toBe(409);
      const sold = `Seat hold '${hold.id}' was sold by issuance '${issued.body.id}'; its seats are sold.`;
      expect(reused.body.error).toMatchObject({ code: 'seat_hold_unavailable', param: 'seat_hold_id', message: sold });
      // The release names the hold in its URL: no param.
      const release = (await api.delete(`/v1/events/${eventId}/seats/hold/${hold.id}`)).body.error;
      expect(release).toMatchObject({ code: 'seat_hold_unavailable', message: sold });
      expect(release).not.toHaveProperty('param');
      const again = await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:B:4'] });
      expect(again.body.error).toMatchObject({ code: 'seats_unavailable', message: "Seat 'Stalls:B:4' is already taken; no seat was held." });
      expect((await api.get(`/v1/events/${eventId}/tiers`)).body.data[0]).toMatchObject({ sold: 2, held: 0 });
    });

    it('refuses a sale from a seat hold that has expired, sells nothing, and the seats can be held again', async () => {
      const api = as((await createAccount()).secret_key);
      const { eventId, tierId } = await seatedEvent(api);
      const hold = (await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:B:1'], ttl_seconds: 1 })).body;
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const late = await api.post(`/v1/events/${eventId}/tickets`, seatedSale(tierId, hold.id, 1));
      expect(late.status).toBe(409);
      expect(late.body.error).toMatchObject({ code: 'seat_hold_unavailable', param: 'seat_hold_id', message: `Seat hold '${hold.id}' has expired; hold the seats again.` });
      expect((await api.get(`/v1/events/${eventId}/tiers`)).body.data[0]).toMatchObject({ sold: 0, held: 0 });
      // The sweeper ends the hold on its own (a new hold of the seat would end it too), and the seat map follows.
      await waitFor('the sweeper to end the expired hold', async () => {
        const [row] = await queryServiceDatabase<{ status: string }>('ticketing', 'SELECT status FROM seat_holds WHERE id = $1', [hold.id]);
        return row?.status === 'expired' || undefined;
      });
      await seatMapShows(api, eventId, { 'Stalls:B:1': 'available' });
      expect((await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:B:1'] })).status).toBe(200);
    });

    it('does not upgrade a seated ticket, and frees a refunded one’s seat: the seat map shows it available, and it sells again', async () => {
      const api = as((await createAccount()).secret_key);
      const { eventId, tierId } = await seatedEvent(api);
      const hold = (await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1'] })).body;
      const sold = (await api.post(`/v1/events/${eventId}/tickets`, seatedSale(tierId, hold.id, 1))).body.tickets[0];
      await seatMapShows(api, eventId, { 'Stalls:A:1': 'sold' });
      const lounge = (await api.post(`/v1/events/${eventId}/tiers`, { name: 'Lounge', price: 5000, capacity: 5, rank: 5 })).body.id;
      expect((await api.get(`/v1/tickets/${sold.id}/upgrade-options`)).body.data).toEqual([]);
      const upgraded = await api.post(`/v1/tickets/${sold.id}/upgrade`, { tier_id: lounge });
      expect(upgraded.status).toBe(400);
      expect(upgraded.body.error).toMatchObject({ code: 'parameter_invalid', param: 'tier_id', message: expect.stringContaining('seated tickets are not upgraded') });
      expect((await api.post(`/v1/tickets/${sold.id}/refund`, { reason: 'Cannot attend' })).body).toMatchObject({ status: 'refunded', seat: 'Stalls:A:1' });
      await seatMapShows(api, eventId, { 'Stalls:A:1': 'available' });
      const rehold = (await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1'] })).body;
      const resold = await api.post(`/v1/events/${eventId}/tickets`, seatedSale(tierId, rehold.id, 1, 'bo@example.com'));
      expect(resold.status).toBe(200);
      expect(resold.body.tickets[0].seat).toBe('Stalls:A:1');
    });

    it('sells one hold’s seats once, however many issuances race for it', async () => {
      const api = as((await createAccount()).secret_key);
      const { eventId, tierId } = await seatedEvent(api);
      const hold = (await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1'] })).body;
      const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => api.post(`/v1/events/${eventId}/tickets`, seatedSale(tierId, hold.id, 1, `fan${index}@example.com`))));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.error.code)).toEqual(Array(7).fill('seat_hold_unavailable'));
      expect((await api.get(`/v1/events/${eventId}/tiers`)).body.data[0]).toMatchObject({ sold: 1, held: 0 });
      expect((await api.get(`/v1/tickets?event_id=${eventId}`)).body.data).toHaveLength(1);
    });

    it('refuses another account’s seat hold, to sell from or to release, and the hold stays its owner’s to sell', async () => {
      const owner = as((await createAccount()).secret_key);
      const { eventId, tierId } = await seatedEvent(owner);
      const hold = (await owner.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:4'] })).body;
      await seatMapShows(owner, eventId, { 'Stalls:A:4': 'held' });
      const stranger = as((await createAccount()).secret_key);
      const theirs = await seatedEvent(stranger);
      const refusals: Array<[string, () => Promise<ApiResponse>, Record<string, unknown>]> = [
        ['sell from it', () => stranger.post(`/v1/events/${theirs.eventId}/tickets`, seatedSale(theirs.tierId, hold.id, 1)), { status: 400, code: 'resource_missing', param: 'seat_hold_id' }],
        ['release it under its event', () => stranger.delete(`/v1/events/${eventId}/seats/hold/${hold.id}`), { status: 404, code: 'resource_missing' }],
        ['release it under their event', () => stranger.delete(`/v1/events/${theirs.eventId}/seats/hold/${hold.id}`), { status: 404, code: 'resource_missing' }],
      ];
      for (const [attempt, request, expected] of refusals) {
        const refused = await request();
        expect({ attempt, status: refused.status, code: refused.body.error?.code, param: refused.body.error?.param }).toEqual({ attempt, param: undefined, ...expected });
      }
      expect((await stranger.get(`/v1/events/${theirs.eventId}/tiers`)).body.data[0]).toMatchObject({ sold: 0, held: 0 });
      expect((await stranger.get(`/v1/tickets?event_id=${theirs.eventId}`)).body.data).toEqual([]);

      await seatMapShows(owner, eventId, { 'Stalls:A:4': 'held' });
      expect((await owner.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:4'] })).body.error).toMatchObject({ code: 'seats_unavailable' });
      const sold = await owner.post(`/v1/events/${eventId}/tickets`, seatedSale(tierId, hold.id, 1));
      expect(sold.status).toBe(200);
      expect(sold.body.tickets[0].seat).toBe('Stalls:A:4');
    });

    it('refuses a seat hold for a tier that is not seated, and one that does not exist, leaving the hold usable', async () => {
      const api = as((await createAccount()).secret_key);
      const { eventId, tierId: stallsId } = await seatedEvent(api);
      const standing = (await api.post(`/v1/events/${eventId}/tiers`, { name: 'Standing', price: 2500, capacity: 10 })).body.id as string;
      const hold = (await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1'] })).body;
      const onStanding = (holdId: string) => api.post(`/v1/events/${eventId}/tickets`, { ...seatedSale(standing, holdId, 1), payment: { type: 'external', reference: 'o', amount: 2500 } });

      expect((await onStanding(hold.id)).body.error).toMatchObject({
        code: 'parameter_invalid',
        param: 'seat_hold_id',
        message: `Seat 'Stalls:A:1' of seat hold '${hold.id}' sells under tier '${stallsId}', not '${standing}'.`,
      });
      expect((await onStanding('hold_01JD3WE2F4H6K8M0P2R4T6V8X0')).body.error).toMatchObject({ code: 'resource_missing', param: 'seat_hold_id' });
      expect((await api.get(`/v1/events/${eventId}/tiers`)).body.data.map(({ sold, held }: { sold: number; held: number }) => ({ sold, held }))).toEqual([
        { sold: 0, held: 0 },
        { sold: 0, held: 0 },
      ]);
      expect((await api.post(`/v1/events/${eventId}/tickets`, seatedSale(stallsId, hold.id, 1))).status).toBe(200);
    });
  });
});
