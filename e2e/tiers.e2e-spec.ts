import { activateLive, as, createAccount } from './support/api';
import { type Client, ids } from './support/lists';
import { queryServiceDatabase } from './support/databases';

async function newEvent(api: Client, fields: Record<string, unknown> = {}): Promise<{ id: string; currency: string }> {
  const created = await api.post('/v1/events', { name: 'Tier Night', starts_at: '2027-09-01T20:00:00Z', currency: 'EUR', ...fields });
  expect(created.status).toBe(200);
  return created.body;
}

describe('tiers through the gateway', () => {
  it('creates a tier with every field, and one with the defaults', async () => {
    const api = as((await createAccount()).secret_key);
    const event = await newEvent(api);

    const created = await api.post(`/v1/events/${event.id}/tiers`, {
      name: 'Front stalls',
      price: 4500,
      capacity: 120,
      currency: 'eur',
      sales_start_at: '2027-06-01T10:00:00+02:00',
      sales_end_at: '2027-09-01T18:00:00Z',
      min_per_order: 2,
      max_per_order: 8,
      seated: true,
      rank: 3,
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^tier_[0-9A-Z]{26}$/),
      object: 'tier',
      livemode: false,
      event_id: event.id,
      name: 'Front stalls',
      price: 4500,
      currency: 'EUR',
      capacity: 120,
      held: 0,
      sold: 0,
      available: 120,
      sales_start_at: '2027-06-01T08:00:00.000Z',
      sales_end_at: '2027-09-01T18:00:00.000Z',
      min_per_order: 2,
      max_per_order: 8,
      seated: true,
      rank: 3,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const plain = await api.post(`/v1/events/${event.id}/tiers`, { name: 'Standing', price: 0, capacity: 0 });
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({
      event_id: event.id,
      name: 'Standing',
      price: 0,
      currency: 'EUR',
      capacity: 0,
      held: 0,
      sold: 0,
      available: 0,
      sales_start_at: null,
      sales_end_at: null,
      min_per_order: 1,
      max_per_order: null,
      seated: false,
      rank: 0,
    });

    const list = await api.get(`/v1/events/${event.id}/tiers`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ object: 'list', data: [plain.body, created.body], has_more: false });
    expect((await api.get(`/v1/events/${event.id}`)).body.tiers).toEqual([plain.body, created.body]);
  });

  it('lists an event’s tiers newest first, page by page, and only that event’s', async () => {
    const api = as((await createAccount()).secret_key);
    const event = await newEvent(api);
    const otherEvent = await newEvent(api, { name: 'Other night' });
    const otherTier = (await api.post(`/v1/events/${otherEvent.id}/tiers`, { name: 'Elsewhere', price: 100, capacity: 1 })).body;
    const created: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      const tier = await api.post(`/v1/events/${event.id}/tiers`, { name: `Tier ${index}`, price: 1000 * (index + 1), capacity: 10, rank: 5 - index });
      expect(tier.status).toBe(200);
      created.push(tier.body.id);
    }
    const newestFirst = [...created].reverse();

    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages += 1) {
      const page = await api.get(`/v1/events/${event.id}/tiers?limit=2${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      expect(page.body.data.every((tier: { event_id: string }) => tier.event_id === event.id)).toBe(true);
      seen.push(...ids(page.body));
      hasMore.push(page.body.has_more);
      if (!page.body.has_more) break;
      cursor = page.body.data.at(-1).id;
    }
    expect(seen).toEqual(newestFirst);
    expect(hasMore).toEqual([true, true, false]);

    const foreignCursor = await api.get(`/v1/events/${event.id}/tiers?starting_after=${otherTier.id}`);
    expect(foreignCursor.status).toBe(400);
    expect(foreignCursor.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    expect(ids((await api.get(`/v1/events/${otherEvent.id}/tiers`)).body)).toEqual([otherTier.id]);

    const noEvent = await api.get('/v1/events/evt_01JZZZZZZZZZZZZZZZZZZZZZZZ/tiers');
    expect(noEvent.status).toBe(404);
    expect(noEvent.body.error.code).toBe('resource_missing');
  });

  it('updates only the fields sent, and null clears sales_end_at and max_per_order', async () => {
    const api = as((await createAccount()).secret_key);
    const event = await newEvent(api);
    const tier = (
      await api.post(`/v1/events/${event.id}/tiers`, {
        name: 'Early bird',
        price: 3000,
        capacity: 100,
        sales_start_at: '2027-05-01T00:00:00Z',
        sales_end_at: '2027-06-01T00:00:00Z',
        min_per_order: 1,
        max_per_order: 4,
        seated: false,
        rank: 1,
      })
    ).body;

    const repriced = await api.patch(`/v1/events/${event.id}/tiers/${tier.id}`, { price: 3500, capacity: 150 });
    expect(repriced.status).toBe(200);
    expect(repriced.body).toEqual({
      ...tier,
      price: 3500,
      capacity: 150,
      available: 150,
      updated_at: expect.any(String),
    });

    const cleared = await api.patch(`/v1/events/${event.id}/tiers/${tier.id}`, { sales_end_at: null, max_per_order: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ price: 3500, capacity: 150, sales_start_at: '2027-05-01T00:00:00.000Z', sales_end_at: null, max_per_order: null, min_per_order: 1 });

    const renamed = await api.patch(`/v1/events/${event.id}/tiers/${tier.id}`, { name: 'Regular', rank: 4, min_per_order: 2, sales_start_at: null });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Regular', rank: 4, min_per_order: 2, sales_start_at: null, sales_end_at: null, max_per_order: null, price: 3500 });

    expect((await api.get(`/v1/events/${event.id}/tiers`)).body.data).toEqual([renamed.body]);
    expect((await api.get(`/v1/events/${event.id}`)).body.tiers).toEqual([renamed.body]);

    const missing = await api.patch(`/v1/events/${event.id}/tiers/tier_01JZZZZZZZZZZZZZZZZZZZZZZZ`, { price: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('resource_missing');
    const otherEvent = await newEvent(api, { name: 'Other' });
    const wrongEvent = await api.patch(`/v1/events/${otherEvent.id}/tiers/${tier.id}`, { price: 1 });
    expect(wrongEvent.status).toBe(404);
    expect(wrongEvent.body.error.code).toBe('resource_missing');
    expect((await api.get(`/v1/events/${event.id}/tiers`)).body.data[0].price).toBe(3500);
  });

  it('refuses invalid tiers and changes with the parameter named, writing nothing', async () => {
    const api = as((await createAccount()).secret_key);
    const event = await newEvent(api);
    const tier = (
      await api.post(`/v1/events/${event.id}/tiers`, {
        name: 'Keeper',
        price: 2000,
        capacity: 50,
        sales_start_at: '2027-05-01T00:00:00Z',
        sales_end_at: '2027-06-01T00:00:00Z',
        min_per_order: 2,
        max_per_order: 6,
      })
    ).body;
    const base = { name: 'Bad', price: 1000, capacity: 10 };

    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['negative price', { ...base, price: -1 }, 'parameter_invalid', 'price'],
      ['fractional price', { ...base, price: 10.5 }, 'parameter_invalid', 'price'],
      ['price as a string', { ...base, price: '1000' }, 'parameter_invalid', 'price'],
      ['negative capacity', { ...base, capacity: -1 }, 'parameter_invalid', 'capacity'],
      ['sales end before they start', { ...base, sales_start_at: '2027-06-01T00:00:00Z', sales_end_at: '2027-05-01T00:00:00Z' }, 'parameter_invalid', 'sales_end_at'],
      ['max below min', { ...base, min_per_order: 5, max_per_order: 4 }, 'parameter_invalid', 'max_per_order'],
      ['sales starting after the event, with no end of their own', { ...base, sales_start_at: '2027-10-01T00:00:00Z' }, 'parameter_invalid', 'sales_start_at'],
      ['min of zero', { ...base, min_per_order: 0 }, 'parameter_invalid', 'min_per_order'],
      ['min above the capacity', { ...base, min_per_order: 11 }, 'parameter_invalid', 'min_per_order'],
      ['another currency', { ...base, currency: 'USD' }, 'parameter_invalid', 'currency'],
      ['malformed currency', { ...base, currency: 'euro' }, 'parameter_invalid', 'currency'],
      ['seated as a string', { ...base, seated: 'yes' }, 'parameter_invalid', 'seated'],
      ['rank too high', { ...base, rank: 1001 }, 'parameter_invalid', 'rank'],
      ['missing price', { name: 'Bad', capacity: 10 }, 'parameter_missing', 'price'],
      ['missing name', { price: 1000, capacity: 10 }, 'parameter_missing', 'name'],
      ['unknown field', { ...base, colour: 'gold' }, 'parameter_unknown', 'colour'],
    ];
    for (const [label, body, code, param] of cases) {
      const response = await api.post(`/v1/events/${event.id}/tiers`, body);
      expect({ label, status: response.status }).toEqual({ label, status: 400 });
      expect({ label, error: response.body.error }).toMatchObject({ label, error: { type: 'invalid_request_error', code, param } });
    }

    const patches: Array<[string, Record<string, unknown>, string, string]> = [
      ['negative price', { price: -5 }, 'parameter_invalid', 'price'],
      ['capacity -1', { capacity: -1 }, 'parameter_invalid', 'capacity'],
      ['sales end before the stored start', { sales_end_at: '2027-04-01T00:00:00Z' }, 'parameter_invalid', 'sales_end_at'],
      ['max below the stored min', { max_per_order: 1 }, 'parameter_invalid', 'max_per_order'],
      ['end cleared with sales starting after the event', { sales_start_at: '2027-09-02T00:00:00Z', sales_end_at: null }, 'parameter_invalid', 'sales_start_at'],
      ['min above the stored max', { min_per_order: 7 }, 'parameter_invalid', 'max_per_order'],
      ['capacity below the stored min', { capacity: 1 }, 'parameter_invalid', 'capacity'],
      ['seated cannot change', { seated: true }, 'parameter_unknown', 'seated'],
      ['currency cannot change', { currency: 'EUR' }, 'parameter_unknown', 'currency'],
    ];
    for (const [label, body, code, param] of patches) {
      const response = await api.patch(`/v1/events/${event.id}/tiers/${tier.id}`, body);
      expect({ label, status: response.status }).toEqual({ label, status: 400 });
      expect({ label, error: response.body.error }).toMatchObject({ label, error: { type: 'invalid_request_error', code, param } });
    }
    const empty = await api.patch(`/v1/events/${event.id}/tiers/${tier.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('parameter_missing');

    expect((await api.get(`/v1/events/${event.id}/tiers`)).body.data).toEqual([tier]);
    expect((await api.get(`/v1/events/${event.id}`)).body.tiers).toEqual([tier]);
  });

  it('keeps an event from starting before a tier that sells until its start opens', async () => {
    const api = as((await createAccount()).secret_key);
    const event = await newEvent(api);
    const tier = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'Late release', price: 1000, capacity: 5, sales_start_at: '2027-05-01T00:00:00Z' })).body;
    const stranding = await api.patch(`/v1/events/${event.id}`, { starts_at: '2027-04-01T00:00:00Z' });
    expect({ status: stranding.status, error: stranding.body.error }).toMatchObject({ status: 400, error: { code: 'parameter_invalid', param: 'starts_at' } });
    expect(stranding.body.error.message).toContain(tier.id);
    expect((await api.get(`/v1/events/${event.id}`)).body.starts_at).toBe('2027-09-01T20:00:00.000Z');
    // With an end of its own, the tier no longer depends on the start.
    expect((await api.patch(`/v1/events/${event.id}/tiers/${tier.id}`, { sales_end_at: '2027-06-01T00:00:00Z' })).status).toBe(200);
    expect((await api.patch(`/v1/events/${event.id}`, { starts_at: '2027-04-01T00:00:00Z' })).status).toBe(200);
  });

  it('answers 404 for another mode’s event, and keeps the tier untouched', async () => {
    const account = await createAccount();
    const test = as(account.secret_key);
    const live = as((await activateLive(account.account_id)).secret_key);
    const event = await newEvent(test);
    const tier = (await test.post(`/v1/events/${event.id}/tiers`, { name: 'General', price: 1000, capacity: 10 })).body;

    const create = await live.post(`/v1/events/${event.id}/tiers`, { name: 'Sneaky', price: 1, capacity: 1 });
    expect(create.status).toBe(404);
    expect(create.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing' });
    const list = await live.get(`/v1/events/${event.id}/tiers`);
    expect(list.status).toBe(404);
    expect(list.body.error.code).toBe('resource_missing');
    const update = await live.patch(`/v1/events/${event.id}/tiers/${tier.id}`, { price: 1 });
    expect(update.status).toBe(404);
    expect(update.body.error.code).toBe('resource_missing');

    const liveEvent = await newEvent(live);
    const crossed = await live.patch(`/v1/events/${liveEvent.id}/tiers/${tier.id}`, { price: 1 });
    expect(crossed.status).toBe(404);

    expect((await test.get(`/v1/events/${event.id}/tiers`)).body.data).toEqual([tier]);
  });

  it('refuses new and changed tiers once the event is canceled', async () => {
    const api = as((await createAccount()).secret_key);
    const event = await newEvent(api);
    const tier = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'General', price: 1000, capacity: 10 })).body;
    expect((await api.patch(`/v1/events/${event.id}`, { status: 'published' })).status).toBe(200);
    const published = await api.post(`/v1/events/${event.id}/tiers`, { name: 'Late addition', price: 1500, capacity: 5 });
    expect(published.status).toBe(200);
    expect((await api.patch(`/v1/events/${event.id}`, { status: 'canceled' })).status).toBe(200);

    const created = await api.post(`/v1/events/${event.id}/tiers`, { name: 'Too late', price: 1000, capacity: 10 });
    expect(created.status).toBe(409);
    expect(created.body.error).toMatchObject({ type: 'invalid_request_error', code: 'event_finalized' });
    const updated = await api.patch(`/v1/events/${event.id}/tiers/${tier.id}`, { price: 1 });
    expect(updated.status).toBe(409);
    expect(updated.body.error.code).toBe('event_finalized');

    expect(ids((await api.get(`/v1/events/${event.id}/tiers`)).body)).toEqual([published.body.id, tier.id]);
    expect((await api.get(`/v1/events/${event.id}`)).body.tiers.map((t: { price: number }) => t.price)).toEqual([1000, 1500]);
  });

  it('never lets capacity drop below what is held and sold, and shows available = capacity − held − sold', async () => {
    const api = as((await createAccount()).secret_key);
    const event = await newEvent(api);
    const tier = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'General', price: 1000, capacity: 20 })).body;

    // What ticketing's holds and sales would have done to the counters catalog keeps.
    await queryServiceDatabase('catalog', 'UPDATE tiers SET held = 5, sold = 3 WHERE id = $1', [tier.id]);
    const listed = (await api.get(`/v1/events/${event.id}/tiers`)).body.data[0];
    expect(listed).toMatchObject({ capacity: 20, held: 5, sold: 3, available: 12 });
    expect((await api.get(`/v1/events/${event.id}`)).body.tiers[0]).toMatchObject({ capacity: 20, held: 5, sold: 3, available: 12 });

    const tooSmall = await api.patch(`/v1/events/${event.id}/tiers/${tier.id}`, { capacity: 7 });
    expect(tooSmall.status).toBe(409);
    expect(tooSmall.body.error).toMatchObject({ type: 'invalid_request_error', code: 'capacity_below_committed', param: 'capacity' });
    expect(tooSmall.body.error.message).toContain('8');

    const tooSmallWithName = await api.patch(`/v1/events/${event.id}/tiers/${tier.id}`, { capacity: 0, name: 'Renamed' });
    expect(tooSmallWithName.status).toBe(409);
    expect(tooSmallWithName.body.error.code).toBe('capacity_below_committed');
    expect((await api.get(`/v1/events/${event.id}/tiers`)).body.data[0]).toMatchObject({ name: 'General', capacity: 20, available: 12 });

    const exact = await api.patch(`/v1/events/${event.id}/tiers/${tier.id}`, { capacity: 8 });
    expect(exact.status).toBe(200);
    expect(exact.body).toMatchObject({ capacity: 8, held: 5, sold: 3, available: 0 });

    const grown = await api.patch(`/v1/events/${event.id}/tiers/${tier.id}`, { capacity: 30, price: 1200 });
    expect(grown.status).toBe(200);
    expect(grown.body).toMatchObject({ capacity: 30, price: 1200, held: 5, sold: 3, available: 22 });

    const [row] = await queryServiceDatabase<{ capacity: number; held: number; sold: number }>('catalog', 'SELECT capacity, held, sold FROM tiers WHERE id = $1', [tier.id]);
    expect(row).toEqual({ capacity: 30, held: 5, sold: 3 });
  });
});
