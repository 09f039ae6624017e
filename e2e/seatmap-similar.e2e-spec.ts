import type { Producer } from 'kafkajs';
import { kafkaBrokers } from '@ticketing/config';
import { TICKETING_SEAT_TOPIC, type EventOf, type SeatStatus } from '@ticketing/contracts';
import { newId } from '@ticketing/ids';
import { createKafka, createProducer } from '@ticketing/kafka';
import { createLogger } from '@ticketing/observability';
import { waitFor } from '@ticketing/testing';
import { activateLive, as, createAccount, type AdminKey } from './support/api';
import { type Client, ids } from './support/lists';

type SeatChange = EventOf<typeof TICKETING_SEAT_TOPIC>;

/** Seat ids of a seat map response, by status. */
function statuses(map: { sections: Array<{ rows: Array<{ seats: Array<{ id: string; status: SeatStatus }> }> }> }): Record<string, SeatStatus> {
  return Object.fromEntries(map.sections.flatMap((section) => section.rows.flatMap((row) => row.seats.map((seat) => [seat.id, seat.status]))));
}

describe('seat maps through the gateway', () => {
  let producer: Producer;

  beforeAll(async () => {
    // The same brokers the e2e copy of the system uses (KAFKA_BROKERS, else the local default).
    const kafka = createKafka({ clientId: 'e2e-ticketing-double', brokers: kafkaBrokers.parse(process.env.KAFKA_BROKERS), logger: createLogger('e2e', 'warn') });
    producer = createProducer(kafka);
    await producer.connect();
  });

  afterAll(async () => {
    await producer?.disconnect();
  });

  /** Publishes what ticketing would about seats: the envelope on ticketing.seat.v1, keyed by the event id. */
  async function publishSeatChange(account: AdminKey, mode: 'test' | 'live', type: SeatChange['type'], eventId: string, seatIds: string[], id = newId('msg')): Promise<SeatChange> {
    const data = type === 'seat.held' ? { event_id: eventId, seat_ids: seatIds, hold_id: newId('hold') } : { event_id: eventId, seat_ids: seatIds };
    const change = { id, type, account_id: account.account_id, mode, occurred_at: new Date().toISOString(), data } as SeatChange;
    await resend(change);
    return change;
  }

  async function resend(change: SeatChange): Promise<void> {
    await producer.send({ topic: TICKETING_SEAT_TOPIC.name, messages: [{ key: change.data.event_id, value: JSON.stringify(change) }] });
  }

  async function waitForStatuses(api: Client, eventId: string, expected: Record<string, SeatStatus>) {
    return waitFor(`seat statuses ${JSON.stringify(expected)} on ${eventId}`, async () => {
      const map = (await api.get(`/v1/events/${eventId}/seatmap`)).body;
      const current = statuses(map);
      return Object.entries(expected).every(([seat, status]) => current[seat] === status) ? map : undefined;
    });
  }

  /** An event with a seated tier, a second seated tier and a standing (not seated) tier. */
  async function seatedEvent(api: Client) {
    const event = (await api.post('/v1/events', { name: 'Seated Night', starts_at: '2027-10-01T19:30:00Z', currency: 'EUR' })).body;
    const stalls = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'Stalls', price: 5000, capacity: 4, seated: true, rank: 2 })).body;
    const balcony = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'Balcony', price: 3000, capacity: 2, seated: true, rank: 1 })).body;
    const standing = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'Standing', price: 2000, capacity: 100 })).body;
    return { event, stalls, balcony, standing };
  }

  const layoutFor = (stallsId: string, balconyId: string) => ({
    sections: [
      {
        label: 'Stalls',
        rows: [
          { label: 'A', seats: [{ label: '1', tier_id: stallsId }, { label: '2', tier_id: stallsId }] },
          { label: 'B', seats: [{ label: '1', tier_id: stallsId }, { label: '2', tier_id: stallsId }] },
        ],
      },
      { label: 'Balcony', rows: [{ label: 'A', seats: [{ label: '1', tier_id: balconyId }, { label: '2', tier_id: balconyId }] }] },
    ],
  });

  it('sets a layout and shows every seat available, with ids "<section>:<row>:<seat>"', async () => {
    const api = as((await createAccount()).secret_key);
    const { event, stalls, balcony } = await seatedEvent(api);

    const none = await api.get(`/v1/events/${event.id}/seatmap`);
    expect(none.status).toBe(404);
    expect(none.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing' });
    expect((await api.get(`/v1/events/${event.id}`)).body.has_seatmap).toBe(false);

    const set = await api.put(`/v1/events/${event.id}/seatmap`, layoutFor(stalls.id, balcony.id));
    expect(set.status).toBe(200);
    const seat = (id: string, label: string, tierId: string) => ({ id, label, tier_id: tierId, status: 'available' });
    expect(set.body).toEqual({
      object: 'seatmap',
      event_id: event.id,
      livemode: false,
      sections: [
        {
          label: 'Stalls',
          rows: [
            { label: 'A', seats: [seat('Stalls:A:1', '1', stalls.id), seat('Stalls:A:2', '2', stalls.id)] },
            { label: 'B', seats: [seat('Stalls:B:1', '1', stalls.id), seat('Stalls:B:2', '2', stalls.id)] },
          ],
        },
        { label: 'Balcony', rows: [{ label: 'A', seats: [seat('Balcony:A:1', '1', balcony.id), seat('Balcony:A:2', '2', balcony.id)] }] },
      ],
      seat_count: 6,
      available_count: 6,
      held_count: 0,
      sold_count: 0,
      updated_at: expect.any(String),
    });

    const fetched = await api.get(`/v1/events/${event.id}/seatmap`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(set.body);
    expect((await api.get(`/v1/events/${event.id}`)).body.has_seatmap).toBe(true);

    const missingEvent = await api.get('/v1/events/evt_01JZZZZZZZZZZZZZZZZZZZZZZZ/seatmap');
    expect(missingEvent.status).toBe(404);
    expect(missingEvent.body.error.code).toBe('resource_missing');
  });

  it('takes and shows a layout of 100,000 seats with the longest labels, the most a seat map holds, and refuses one seat more', async () => {
    const api = as((await createAccount()).secret_key);
    const event = (await api.post('/v1/events', { name: 'Stadium Night', starts_at: '2099-10-01T19:30:00Z', currency: 'EUR' })).body;
    const pitch = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'Pitch', price: 5000, capacity: 100_001, seated: true })).body;
    const label = (prefix: string, index: number) => `${prefix}${String(index).padStart(20 - prefix.length, '0')}`;
    const stadium = (seatsPerRow: number) => ({
      sections: Array.from({ length: 50 }, (_, section) => ({
        label: label('S', section),
        rows: Array.from({ length: 100 }, (_, row) => ({ label: label('R', row), seats: Array.from({ length: seatsPerRow }, (_, seat) => ({ label: label('', seat), tier_id: pitch.id })) })),
      })),
    });
    const largest = stadium(20);
    expect(Buffer.byteLength(JSON.stringify(largest))).toBeGreaterThan(7_000_000);
    const set = await api.put(`/v1/events/${event.id}/seatmap`, largest);
    expect({ status: set.status, error: set.body.error }).toEqual({ status: 200, error: undefined });
    const seats = Object.values(statuses((await api.get(`/v1/events/${event.id}/seatmap`)).body));
    expect({ seats: seats.length, available: seats.filter((status) => status === 'available').length }).toEqual({ seats: 100_000, available: 100_000 });

    // The same layout and one seat more. (Building a second one blocked this process for seconds on
    // a loaded machine, past the gateway's keep-alive timeout: the PUT then went out on a socket
    // the gateway had closed, and failed with EPIPE.)
    const oneMore = largest;
    oneMore.sections[0]!.rows[0]!.seats.push({ label: 'extra', tier_id: pitch.id });
    const refused = await api.put(`/v1/events/${event.id}/seatmap`, oneMore);
    expect({ status: refused.status, error: refused.body.error }).toMatchObject({ status: 400, error: { code: 'parameter_invalid', param: 'sections', message: 'A seat map holds at most 100000 seats.' } });
  });

  it('refuses a layout naming the faulty parameter, keeping the previous one', async () => {
    const api = as((await createAccount()).secret_key);
    const { event, stalls, balcony, standing } = await seatedEvent(api);
    const other = await seatedEvent(api);
    const stored = (await api.put(`/v1/events/${event.id}/seatmap`, layoutFor(stalls.id, balcony.id))).body;

    const row = (seats: Array<{ label: string; tier_id: string }>) => ({ sections: [{ label: 'Stalls', rows: [{ label: 'A', seats }] }] });
    const cases: Array<[string, unknown, string, string]> = [
      ['a seat of a tier that is not seated', row([{ label: '1', tier_id: stalls.id }, { label: '2', tier_id: standing.id }]), 'parameter_invalid', 'sections[0].rows[0].seats[1].tier_id'],
      ['a seat of another event’s tier', row([{ label: '1', tier_id: other.stalls.id }]), 'parameter_invalid', 'sections[0].rows[0].seats[0].tier_id'],
      ['a malformed tier id', row([{ label: '1', tier_id: 'stalls' }]), 'parameter_invalid', 'sections[0].rows[0].seats[0].tier_id'],
      ['the same seat twice', row([{ label: '1', tier_id: stalls.id }, { label: '1', tier_id: stalls.id }]), 'parameter_invalid', 'sections[0].rows[0].seats[1].label'],
      ['a label with ":"', row([{ label: '1:2', tier_id: stalls.id }]), 'parameter_invalid', 'sections[0].rows[0].seats[0].label'],
      ['a seat without a tier', row([{ label: '1' }] as never), 'parameter_missing', 'sections[0].rows[0].seats[0].tier_id'],
      ['no sections', { sections: [] }, 'parameter_missing', 'sections'],
      ['no seats', { sections: [{ label: 'Stalls', rows: [{ label: 'A', seats: [] }] }] }, 'parameter_missing', 'sections'],
      ['unknown field', { ...row([{ label: '1', tier_id: stalls.id }]), venue: 'x' }, 'parameter_unknown', 'venue'],
    ];
    for (const [label, body, code, param] of cases) {
      const response = await api.put(`/v1/events/${event.id}/seatmap`, body);
      expect({ label, status: response.status }).toEqual({ label, status: 400 });
      expect({ label, error: response.body.error }).toMatchObject({ label, error: { type: 'invalid_request_error', code, param } });
    }
    expect((await api.get(`/v1/events/${event.id}/seatmap`)).body).toEqual(stored);
  });

  it('shows seats held, sold and released as ticketing publishes them, applying a redelivery once', async () => {
    const account = await createAccount();
    const api = as(account.secret_key);
    const { event, stalls, balcony } = await seatedEvent(api);
    expect((await api.put(`/v1/events/${event.id}/seatmap`, layoutFor(stalls.id, balcony.id))).status).toBe(200);

    await publishSeatChange(account, 'test', 'seat.held', event.id, ['Stalls:A:1', 'Stalls:A:2']);
    const held = await waitForStatuses(api, event.id, { 'Stalls:A:1': 'held', 'Stalls:A:2': 'held' });
    expect(statuses(held)).toEqual({
      'Stalls:A:1': 'held',
      'Stalls:A:2': 'held',
      'Stalls:B:1': 'available',
      'Stalls:B:2': 'available',
      'Balcony:A:1': 'available',
      'Balcony:A:2': 'available',
    });
    expect(held).toMatchObject({ seat_count: 6, available_count: 4, held_count: 2, sold_count: 0 });

    await publishSeatChange(account, 'test', 'seat.sold', event.id, ['Stalls:A:1']);
    await publishSeatChange(account, 'test', 'seat.released', event.id, ['Stalls:A:2']);
    const settled = await waitForStatuses(api, event.id, { 'Stalls:A:1': 'sold', 'Stalls:A:2': 'available' });
    expect(settled).toMatchObject({ available_count: 5, held_count: 0, sold_count: 1 });

    // A hold, its release, then the hold delivered again (same message id): the redelivery is ignored.
    const hold = await publishSeatChange(account, 'test', 'seat.held', event.id, ['Balcony:A:1']);
    await waitForStatuses(api, event.id, { 'Balcony:A:1': 'held' });
    await publishSeatChange(account, 'test', 'seat.released', event.id, ['Balcony:A:1']);
    await waitForStatuses(api, event.id, { 'Balcony:A:1': 'available' });
    await resend(hold);
    // Same key, same partition: once this later change shows, the redelivery before it was handled.
    await publishSeatChange(account, 'test', 'seat.held', event.id, ['Balcony:A:2']);
    const afterRedelivery = await waitForStatuses(api, event.id, { 'Balcony:A:2': 'held' });
    expect(statuses(afterRedelivery)).toEqual({
      'Stalls:A:1': 'sold',
      'Stalls:A:2': 'available',
      'Stalls:B:1': 'available',
      'Stalls:B:2': 'available',
      'Balcony:A:1': 'available',
      'Balcony:A:2': 'held',
    });
    expect(afterRedelivery).toMatchObject({ available_count: 4, held_count: 1, sold_count: 1 });

  });

  it('ignores a seat change published for another mode, and still applies the event’s own mode afterwards', async () => {
    const account = await createAccount();
    const api = as(account.secret_key);
    const { event, stalls, balcony } = await seatedEvent(api);
    expect((await api.put(`/v1/events/${event.id}/seatmap`, layoutFor(stalls.id, balcony.id))).status).toBe(200);

    await publishSeatChange(account, 'live', 'seat.held', event.id, ['Stalls:B:1']);
    await publishSeatChange(account, 'test', 'seat.held', event.id, ['Stalls:B:2']);
    const afterLive = await waitForStatuses(api, event.id, { 'Stalls:B:2': 'held' });
    expect(statuses(afterLive)['Stalls:B:1']).toBe('available');

    // The test-mode hold of the seat the live message named must show like any other.
    await publishSeatChange(account, 'test', 'seat.held', event.id, ['Stalls:B:1']);
    await publishSeatChange(account, 'test', 'seat.sold', event.id, ['Stalls:A:1']);
    const afterTest = await waitForStatuses(api, event.id, { 'Stalls:A:1': 'sold' });
    expect(statuses(afterTest)).toEqual({
      'Stalls:A:1': 'sold',
      'Stalls:A:2': 'available',
      'Stalls:B:1': 'held',
      'Stalls:B:2': 'held',
      'Balcony:A:1': 'available',
      'Balcony:A:2': 'available',
    });
  });

  it('refuses a new layout that drops or moves a held or sold seat, and keeps the statuses in one that keeps them', async () => {
    const account = await createAccount();
    const api = as(account.secret_key);
    const { event, stalls, balcony } = await seatedEvent(api);
    const original = (await api.put(`/v1/events/${event.id}/seatmap`, layoutFor(stalls.id, balcony.id))).body;
    await publishSeatChange(account, 'test', 'seat.held', event.id, ['Stalls:B:2']);
    await publishSeatChange(account, 'test', 'seat.sold', event.id, ['Balcony:A:1']);
    const before = await waitForStatuses(api, event.id, { 'Stalls:B:2': 'held', 'Balcony:A:1': 'sold' });

    const withoutHeld = layoutFor(stalls.id, balcony.id);
    withoutHeld.sections[0]!.rows[1]!.seats.pop();
    const dropped = await api.put(`/v1/events/${event.id}/seatmap`, withoutHeld);
    expect(dropped.status).toBe(409);
    expect(dropped.body.error).toMatchObject({ type: 'invalid_request_error', code: 'seatmap_locked', param: 'sections' });
    expect(dropped.body.error.message).toContain('Stalls:B:2');

    const soldMoved = layoutFor(stalls.id, balcony.id);
    soldMoved.sections[1]!.rows[0]!.seats[0]!.tier_id = stalls.id;
    const moved = await api.put(`/v1/events/${event.id}/seatmap`, soldMoved);
    expect(moved.status).toBe(409);
    expect(moved.body.error.code).toBe('seatmap_locked');

    const after = (await api.get(`/v1/events/${event.id}/seatmap`)).body;
    expect(after).toEqual(before);
    expect(after.seat_count).toBe(original.seat_count);

    // Dropping a free seat and adding a row is fine; held and sold seats keep their status.
    const extended = layoutFor(stalls.id, balcony.id);
    extended.sections[0]!.rows[0]!.seats.pop();
    extended.sections[0]!.rows.push({ label: 'C', seats: [{ label: '1', tier_id: stalls.id }] });
    const replaced = await api.put(`/v1/events/${event.id}/seatmap`, extended);
    expect(replaced.status).toBe(200);
    expect(statuses(replaced.body)).toEqual({
      'Stalls:A:1': 'available',
      'Stalls:B:1': 'available',
      'Stalls:B:2': 'held',
      'Stalls:C:1': 'available',
      'Balcony:A:1': 'sold',
      'Balcony:A:2': 'available',
    });
    expect(replaced.body).toMatchObject({ seat_count: 6, available_count: 4, held_count: 1, sold_count: 1 });
    expect((await api.get(`/v1/events/${event.id}/seatmap`)).body).toEqual(replaced.body);
  });

  it('keeps seat maps within their mode, and freezes them once the event is canceled', async () => {
    const account = await createAccount();
    const api = as(account.secret_key);
    const live = as((await activateLive(account.account_id)).secret_key);
    const { event, stalls, balcony } = await seatedEvent(api);
    const stored = (await api.put(`/v1/events/${event.id}/seatmap`, layoutFor(stalls.id, balcony.id))).body;

    const liveRead = await live.get(`/v1/events/${event.id}/seatmap`);
    expect(liveRead.status).toBe(404);
    expect(liveRead.body.error.code).toBe('resource_missing');
    const liveWrite = await live.put(`/v1/events/${event.id}/seatmap`, layoutFor(stalls.id, balcony.id));
    expect(liveWrite.status).toBe(404);
    expect(liveWrite.body.error.code).toBe('resource_missing');

    expect((await api.patch(`/v1/events/${event.id}`, { status: 'published' })).status).toBe(200);
    expect((await api.patch(`/v1/events/${event.id}`, { status: 'canceled' })).status).toBe(200);
    const frozen = await api.put(`/v1/events/${event.id}/seatmap`, { sections: [{ label: 'Stalls', rows: [{ label: 'A', seats: [{ label: '1', tier_id: stalls.id }] }] }] });
    expect(frozen.status).toBe(409);
    expect(frozen.body.error.code).toBe('event_finalized');
    expect((await api.get(`/v1/events/${event.id}/seatmap`)).body).toEqual(stored);
  });
});

describe('similar events through the gateway', () => {
  const DAY = 86_400_000;
  const base = Date.parse('2028-06-15T19:00:00Z');
  const at = (days: number) => new Date(base + days * DAY).toISOString();

  let api: Client;
  let live: Client;
  let source: { id: string };
  const named: Record<string, { id: string }> = {};

  async function event(body: Record<string, unknown>, options: { publish?: boolean; prices?: number[]; client?: Client } = {}) {
    const client = options.client ?? api;
    const created = await client.post('/v1/events', { currency: 'EUR', ...body });
    expect(created.status).toBe(200);
    for (const [index, price] of (options.prices ?? []).entries()) {
      expect((await client.post(`/v1/events/${created.body.id}/tiers`, { name: `Tier ${index}`, price, capacity: 100 })).status).toBe(200);
    }
    if (options.publish ?? true) expect((await client.patch(`/v1/events/${created.body.id}`, { status: 'published' })).status).toBe(200);
    return created.body as { id: string };
  }

  beforeAll(async () => {
    const account = await createAccount();
    api = as(account.secret_key);
    live = as((await activateLive(account.account_id)).secret_key);
    const organization = (await api.post('/v1/organizations', { name: 'Dockside' })).body.id;
    const paradiso = { name: 'Paradiso', city: 'Amsterdam', country: 'NL' };
    const melkweg = { name: 'Melkweg', city: 'amsterdam', country: 'NL' };
    const rotterdam = { name: 'Ahoy', city: 'Rotterdam', country: 'NL' };
    const alike = { organization_id: organization, venue: paradiso, category: 'Music', tags: ['jazz', 'outdoor'] };

    source = await event({ name: 'Source', starts_at: at(0), ...alike }, { prices: [3000, 5000] });
    // Created in an order unrelated to their rank.
    named.D = await event({ name: 'D: only the date', starts_at: at(59), venue: rotterdam, category: 'sports' }, { prices: [100_000] });
    named.B = await event({ name: 'B: same org and category, one tag', starts_at: at(10), organization_id: organization, venue: melkweg, category: 'music', tags: ['Jazz'] }, { prices: [5000, 8000] });
    named.C = await event({ name: 'C: same city, later', starts_at: at(30), venue: melkweg, category: 'theatre', tags: ['outdoor', 'family'] });
    named.F = await event({ name: 'F: only the price', starts_at: at(120), venue: rotterdam }, { prices: [4000] });
    named.A = await event({ name: 'A: nearly the same', starts_at: at(1), ...alike }, { prices: [4000] });
    named.Cearlier = await event({ name: 'C: same city, sooner', starts_at: at(-30), venue: melkweg, category: 'theatre', tags: ['outdoor', 'family'] });
    named.nothing = await event({ name: 'Nothing in common', starts_at: at(90), venue: rotterdam, category: 'sports' }, { prices: [100_000] });
    named.draft = await event({ name: 'Draft twin', starts_at: at(1), ...alike }, { publish: false, prices: [4000] });
    named.past = await event({ name: 'Past twin', starts_at: '2025-06-15T19:00:00Z', ...alike }, { prices: [4000] });
    const canceled = await event({ name: 'Canceled twin', starts_at: at(2), ...alike }, { prices: [4000] });
    expect((await api.patch(`/v1/events/${canceled.id}`, { status: 'canceled' })).status).toBe(200);
    named.canceled = canceled;
    named.live = await event({ name: 'Live twin', starts_at: at(1), venue: paradiso, category: 'music', tags: ['jazz', 'outdoor'] }, { client: live, prices: [4000] });
  });

  /** The documented score (docs/decisions/0013-similar-events.md), rounded to three decimals. */
  const score = (parts: number[]) => Math.round(parts.reduce((sum, part) => sum + part, 0) * 1000) / 1000;
  const expected = () => [
    { key: 'A', score: score([3, 3, 3, 2, 2 * (1 - 1 / 60), 1.5]), reasons: ['same_organization', 'same_category', 'shared_tags', 'same_venue', 'close_in_date', 'similar_price'] },
    { key: 'B', score: score([3, 3, 3 * 0.5, 1.5, 2 * (1 - 10 / 60), 1.5]), reasons: ['same_organization', 'same_category', 'shared_tags', 'same_city', 'close_in_date', 'similar_price'] },
    // C and its twin score the same; the sooner event goes first.
    { key: 'Cearlier', score: score([3 / 3, 1.5, 2 * (1 - 30 / 60)]), reasons: ['shared_tags', 'same_city', 'close_in_date'] },
    { key: 'C', score: score([3 / 3, 1.5, 2 * (1 - 30 / 60)]), reasons: ['shared_tags', 'same_city', 'close_in_date'] },
    { key: 'F', score: 1.5, reasons: ['similar_price'] },
    { key: 'D', score: score([2 * (1 - 59 / 60)]), reasons: ['close_in_date'] },
  ];

  it('ranks the account’s other upcoming published events of the mode by the documented score', async () => {
    const response = await api.get(`/v1/events/${source.id}/similar?limit=100`);
    expect(response.status).toBe(200);
    expect(response.body.object).toBe('list');
    expect(response.body.has_more).toBe(false);
    const items = response.body.data as Array<{ id: string; object: string; score: number; reasons: string[]; event: { id: string } }>;

    expect(items.map((item) => item.id)).toEqual(expected().map(({ key }) => named[key]!.id));
    for (const [index, { key, score: expectedScore, reasons }] of expected().entries()) {
      const item = items[index]!;
      expect({ key, object: item.object, reasons: item.reasons }).toEqual({ key, object: 'similar_event', reasons });
      expect(item.score).toBeCloseTo(expectedScore, 3);
      expect(Object.keys(item).sort()).toEqual(['event', 'id', 'object', 'reasons', 'score']);
      expect(item.event).toEqual((await api.get(`/v1/events/${item.id}`)).body);
    }

    const excluded = [source.id, named.draft!.id, named.past!.id, named.canceled!.id, named.live!.id, named.nothing!.id];
    for (const id of excluded) expect(items.map((item) => item.id)).not.toContain(id);
  });

  it('walks the ranking once with limit=1 and starting_after', async () => {
    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let cursor = '';
    for (let pages = 0; pages < 20; pages += 1) {
      const page = await api.get(`/v1/events/${source.id}/similar?limit=1${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(1);
      seen.push(...ids(page.body));
      hasMore.push(page.body.has_more);
      if (!page.body.has_more) break;
      cursor = page.body.data[0].id;
    }
    expect(seen).toEqual(expected().map(({ key }) => named[key]!.id));
    expect(hasMore).toEqual([true, true, true, true, true, false]);
  });

  it('refuses a starting_after that is not in the ranking, and another mode’s source', async () => {
    for (const cursor of ['evt_01JZZZZZZZZZZZZZZZZZZZZZZZ', named.draft!.id, named.live!.id, source.id]) {
      const response = await api.get(`/v1/events/${source.id}/similar?starting_after=${cursor}`);
      expect({ cursor, status: response.status }).toEqual({ cursor, status: 400 });
      expect({ cursor, error: response.body.error }).toMatchObject({ cursor, error: { code: 'resource_missing', param: 'starting_after' } });
    }

    const fromLive = await live.get(`/v1/events/${source.id}/similar`);
    expect(fromLive.status).toBe(404);
    expect(fromLive.body.error.code).toBe('resource_missing');
    const missing = await api.get('/v1/events/evt_01JZZZZZZZZZZZZZZZZZZZZZZZ/similar');
    expect(missing.status).toBe(404);

    // From the live side, only live events can be similar: the test twins never show.
    const liveSource = await event({ name: 'Live source', starts_at: at(0), venue: { name: 'Paradiso', city: 'Amsterdam', country: 'NL' }, category: 'music' }, { client: live });
    expect(ids((await live.get(`/v1/events/${liveSource.id}/similar`)).body)).toEqual([named.live!.id]);
  });

  it('ranks from a draft source too, leaving the source itself out', async () => {
    const draftSimilar = await api.get(`/v1/events/${named.draft!.id}/similar?limit=100`);
    expect(draftSimilar.status).toBe(200);
    const rankedIds = ids(draftSimilar.body);
    expect(rankedIds).not.toContain(named.draft!.id);
    expect(rankedIds).toContain(source.id);
    expect(rankedIds[0]).toBe(named.A!.id);
  });
});
