import type { SeatStatus } from '@ticketing/contracts';
import { waitFor } from '@ticketing/testing';
import { as, createAccount } from './support/api';
import type { Client } from './support/lists';

/** A published event with one seated tier and its seat map: rows A and B of four seats in "Stalls". */
async function seatedEvent(api: Client): Promise<{ eventId: string; tierId: string }> {
  const event = (await api.post('/v1/events', { name: 'Seated Night', starts_at: '2027-10-01T19:30:00Z', currency: 'EUR' })).body;
  const tier = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'Stalls', price: 5000, capacity: 8, seated: true })).body;
  const seats = (labels: string[]) => labels.map((label) => ({ label, tier_id: tier.id }));
  const layout = { sections: [{ label: 'Stalls', rows: [{ label: 'A', seats: seats(['1', '2', '3', '4']) }, { label: 'B', seats: seats(['1', '2', '3', '4']) }] }] };
  expect((await api.put(`/v1/events/${event.id}/seatmap`, layout)).status).toBe(200);
  expect((await api.patch(`/v1/events/${event.id}`, { status: 'published' })).status).toBe(200);
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

  it('keeps accounts apart: another account can neither see nor release a hold', async () => {
    const owner = as((await createAccount()).secret_key);
    const { eventId } = await seatedEvent(owner);
    const held = await owner.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:4'] });
    const stranger = as((await createAccount()).secret_key);
    expect((await stranger.delete(`/v1/events/${eventId}/seats/hold/${held.body.id}`)).status).toBe(404);
    expect((await stranger.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1'] })).status).toBe(404);
  });
});
