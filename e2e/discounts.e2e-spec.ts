import { newId } from '@ticketing/ids';
import { activateLive, as, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';
import { gatewayUrl } from './support/system';
import { type Client, ids, walkList } from './support/lists';

const outboxTypes = async (discountId: string) =>
  (await queryServiceDatabase<{ type: string }>('catalog', `SELECT payload->>'type' AS type FROM outbox_messages WHERE message_key = $1 ORDER BY position`, [discountId])).map(
    (row) => row.type,
  );

async function newEvent(api: Client, currency = 'EUR'): Promise<string> {
  const created = await api.post('/v1/events', { name: 'Discount Night', starts_at: '2027-09-01T20:00:00Z', currency });
  expect(created.status).toBe(200);
  return created.body.id;
}

async function newTier(api: Client, eventId: string, price: number): Promise<string> {
  const created = await api.post(`/v1/events/${eventId}/tiers`, { name: `Tier at ${price}`, price, capacity: 100 });
  expect(created.status).toBe(200);
  return created.body.id;
}

describe('discounts through the gateway', () => {
  let api: Client;
  let secretKey: string;

  beforeAll(async () => {
    secretKey = (await createAccount()).secret_key;
    api = as(secretKey);
  });

  it('creates, reads, lists, updates and deactivates a discount, publishing each change', async () => {
    const eventId = await newEvent(api);
    const created = await api.post('/v1/discounts', {
      code: 'summer25',
      percent_off: 25,
      applies_to: { event_ids: [eventId] },
      valid_until: '2027-09-01T00:00:00+02:00',
      max_redemptions: 500,
      max_redemptions_per_customer: 1,
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^dsc_[0-9A-Z]{26}$/),
      object: 'discount',
      livemode: false,
      code: 'SUMMER25',
      percent_off: 25,
      amount_off: null,
      currency: null,
      applies_to: { event_ids: [eventId], tier_ids: [] },
      valid_from: null,
      valid_until: '2027-08-31T22:00:00.000Z',
      max_redemptions: 500,
      max_redemptions_per_customer: 1,
      times_redeemed: 0,
      active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id: string = created.body.id;

    expect((await api.get(`/v1/discounts/${id}`)).body).toEqual(created.body);
    expect(ids((await api.get('/v1/discounts')).body)).toContain(id);

    const updated = await api.patch(`/v1/discounts/${id}`, { code: null, valid_until: null, max_redemptions: 1000, applies_to: { tier_ids: [] } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, code: null, valid_until: null, max_redemptions: 1000, applies_to: { event_ids: [], tier_ids: [] }, percent_off: 25 });

    // The operation takes no fields: one sent is refused, as is a body that is not JSON, and the discount stays active.
    const withField = await api.post(`/v1/discounts/${id}/deactivate`, { active: true });
    expect({ status: withField.status, code: withField.body.error?.code, param: withField.body.error?.param }).toEqual({ status: 400, code: 'parameter_unknown', param: 'active' });
    const asText = await fetch(`${gatewayUrl}/v1/discounts/${id}/deactivate`, { method: 'POST', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'text/plain' }, body: 'hello' });
    expect({ status: asText.status, code: ((await asText.json()) as { error: { code: string } }).error.code }).toEqual({ status: 415, code: 'unsupported_media_type' });
    expect((await api.get(`/v1/discounts/${id}`)).body).toMatchObject({ active: true });
    const deactivated = await api.post(`/v1/discounts/${id}/deactivate`);
    expect(deactivated.status).toBe(200);
    expect(deactivated.body).toMatchObject({ id, active: false });
    expect((await api.post(`/v1/discounts/${id}/deactivate`)).body).toMatchObject({ active: false });
    expect((await api.patch(`/v1/discounts/${id}`, { active: true })).body).toMatchObject({ active: true });

    expect(await outboxTypes(id)).toEqual(['discount.created', 'discount.updated', 'discount.deactivated', 'discount.updated']);
  });

  it('creates a fixed-amount discount in the currency of what it applies to', async () => {
    const eventId = await newEvent(api, 'EUR');
    const tierId = await newTier(api, eventId, 4500);
    const created = await api.post('/v1/discounts', { amount_off: 500, currency: 'eur', applies_to: { tier_ids: [tierId] } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ code: null, percent_off: null, amount_off: 500, currency: 'EUR', applies_to: { event_ids: [], tier_ids: [tierId] } });

    const otherCurrency = await api.post('/v1/discounts', { amount_off: 500, currency: 'USD', applies_to: { event_ids: [eventId] } });
    expect(otherCurrency.status).toBe(400);
    expect(otherCurrency.body.error).toMatchObject({ code: 'parameter_invalid', param: 'currency' });
  });

  it('keeps codes unique per account and mode, answering 409', async () => {
    const code = `DUP-${Date.now()}`;
    expect((await api.post('/v1/discounts', { code, percent_off: 10 })).status).toBe(200);
    const taken = await api.post('/v1/discounts', { code: code.toLowerCase(), percent_off: 20 });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ type: 'invalid_request_error', code: 'discount_code_taken', param: 'code' });
  });

  it('answers 404 for a discount that does not exist', async () => {
    const missing = await api.get('/v1/discounts/dsc_01JZZZZZZZZZZZZZZZZZZZZZZZ');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 'resource_missing' });
    expect((await api.patch('/v1/discounts/dsc_01JZZZZZZZZZZZZZZZZZZZZZZZ', { active: false })).status).toBe(404);
    expect((await api.post('/v1/discounts/dsc_01JZZZZZZZZZZZZZZZZZZZZZZZ/deactivate')).status).toBe(404);
  });

  it.each([
    ['a percentage out of range', { percent_off: 150 }, 'parameter_invalid', 'percent_off'],
    ['a percentage of the wrong type', { percent_off: '10' }, 'parameter_invalid', 'percent_off'],
    ['a negative amount', { amount_off: -100, currency: 'EUR' }, 'parameter_invalid', 'amount_off'],
    ['an amount without currency', { amount_off: 100 }, 'parameter_missing', 'currency'],
    ['three letters that are no ISO 4217 currency', { amount_off: 100, currency: 'QQQ' }, 'parameter_invalid', 'currency'],
    ['no value at all', { code: 'NOVALUE' }, 'parameter_missing', 'percent_off'],
    ['both values', { percent_off: 10, amount_off: 100, currency: 'EUR' }, 'parameter_invalid', 'amount_off'],
    ['until before from', { percent_off: 10, valid_from: '2027-03-01T00:00:00Z', valid_until: '2027-02-01T00:00:00Z' }, 'parameter_invalid', 'valid_until'],
    ['an unknown field', { percent_off: 10, times_redeemed: 5 }, 'parameter_unknown', 'times_redeemed'],
    ['a malformed code', { percent_off: 10, code: 'two words' }, 'parameter_invalid', 'code'],
    ['a negative limit', { percent_off: 10, max_redemptions: -1 }, 'parameter_invalid', 'max_redemptions'],
    ['an event of nobody', { percent_off: 10, applies_to: { event_ids: ['evt_01JZZZZZZZZZZZZZZZZZZZZZZZ'] } }, 'resource_missing', 'applies_to.event_ids[0]'],
  ])('refuses %s with a 400 naming the parameter, writing nothing', async (_name, body, code, param) => {
    const before = (await walkList(api, '/v1/discounts', 100)).ids;
    const response = await api.post('/v1/discounts', body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    expect((await walkList(api, '/v1/discounts', 100)).ids).toEqual(before);
  });

  it('refuses bad updates with a 400 naming the parameter, changing nothing', async () => {
    const created = (await api.post('/v1/discounts', { percent_off: 10, valid_from: '2027-01-01T00:00:00Z' })).body;
    const refusals: Array<[unknown, string, string | undefined]> = [
      [{}, 'parameter_missing', undefined],
      [{ percent_off: 20 }, 'parameter_unknown', 'percent_off'],
      [{ valid_until: '2026-01-01T00:00:00Z' }, 'parameter_invalid', 'valid_until'],
      [{ max_redemptions: 0 }, 'parameter_invalid', 'max_redemptions'],
      [{ active: 'yes' }, 'parameter_invalid', 'active'],
    ];
    for (const [body, code, param] of refusals) {
      const response = await api.patch(`/v1/discounts/${created.id}`, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code, ...(param === undefined ? {} : { param }) });
    }
    expect((await api.get(`/v1/discounts/${created.id}`)).body).toEqual(created);
    expect(await outboxTypes(created.id)).toEqual(['discount.created']);
  });
});

describe('discount triggers through the gateway', () => {
  let api: Client;
  let discountId: string;
  let tierIds: string[];

  beforeAll(async () => {
    api = as((await createAccount()).secret_key);
    const eventId = await newEvent(api);
    tierIds = [await newTier(api, eventId, 2000), await newTier(api, eventId, 6000)];
    discountId = (await api.post('/v1/discounts', { percent_off: 15 })).body.id;
  });

  it('adds each kind of trigger, lists them newest first in pages, and deletes one', async () => {
    const segmentId = newId('seg');
    const bodies = [
      { kind: 'min_quantity', quantity: 4 },
      { kind: 'purchase_window', ends_at: '2027-06-01T00:00:00Z' },
      { kind: 'customer_segment', segment_id: segmentId },
      { kind: 'tier_bundle', tier_ids: tierIds },
    ];
    const created = [];
    for (const body of bodies) {
      const response = await api.post(`/v1/discounts/${discountId}/triggers`, body);
      expect(response.status).toBe(200);
      created.push(response.body);
    }
    expect(created).toEqual([
      { id: expect.stringMatching(/^dtr_/), object: 'discount_trigger', livemode: false, discount_id: discountId, kind: 'min_quantity', quantity: 4, created_at: expect.any(String) },
      expect.objectContaining({ kind: 'purchase_window', starts_at: null, ends_at: '2027-06-01T00:00:00.000Z' }),
      expect.objectContaining({ kind: 'customer_segment', segment_id: segmentId }),
      expect.objectContaining({ kind: 'tier_bundle', tier_ids: tierIds }),
    ]);

    const firstPage = (await api.get(`/v1/discounts/${discountId}/triggers?limit=3`)).body;
    expect(firstPage).toEqual({ object: 'list', data: [created[3], created[2], created[1]], has_more: true });
    const secondPage = (await api.get(`/v1/discounts/${discountId}/triggers?limit=3&starting_after=${created[1].id}`)).body;
    expect(secondPage).toEqual({ object: 'list', data: [created[0]], has_more: false });

    const deleted = await api.delete(`/v1/discounts/${discountId}/triggers/${created[0].id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: created[0].id, object: 'discount_trigger', deleted: true });
    expect((await api.delete(`/v1/discounts/${discountId}/triggers/${created[0].id}`)).status).toBe(404);
    expect(ids((await api.get(`/v1/discounts/${discountId}/triggers`)).body)).toEqual([created[3].id, created[2].id, created[1].id]);

    expect(await outboxTypes(discountId)).toEqual([
      'discount.created',
      'discount.trigger_added',
      'discount.trigger_added',
      'discount.trigger_added',
      'discount.trigger_added',
      'discount.trigger_removed',
    ]);
  });

  it.each([
    ['no kind', { quantity: 4 }, 'parameter_missing', 'kind'],
    ['an unknown kind', { kind: 'loyalty' }, 'parameter_invalid', 'kind'],
    ['a missing quantity', { kind: 'min_quantity' }, 'parameter_missing', 'quantity'],
    ['a zero quantity', { kind: 'min_quantity', quantity: 0 }, 'parameter_invalid', 'quantity'],
    ['a field of another kind', { kind: 'min_quantity', quantity: 2, ends_at: '2027-06-01T00:00:00Z' }, 'parameter_invalid', 'ends_at'],
    ['an open window', { kind: 'purchase_window' }, 'parameter_missing', 'ends_at'],
    ['a window ending before it starts', { kind: 'purchase_window', starts_at: '2027-06-01T00:00:00Z', ends_at: '2027-05-01T00:00:00Z' }, 'parameter_invalid', 'ends_at'],
    ['a segment of the wrong type', { kind: 'customer_segment', segment_id: 42 }, 'parameter_invalid', 'segment_id'],
    ['a bundle of one tier', { kind: 'tier_bundle', tier_ids: ['tier_01JZZZZZZZZZZZZZZZZZZZZZZZ'] }, 'parameter_invalid', 'tier_ids'],
    [
      'a bundle with an unknown tier',
      { kind: 'tier_bundle', tier_ids: ['tier_01JZZZZZZZZZZZZZZZZZZZZZZZ', 'tier_01JZZZZZZZZZZZZZZZZZZZZZZY'] },
      'resource_missing',
      'tier_ids[0]',
    ],
  ])('refuses %s with a 400 naming the parameter, writing nothing', async (_name, body, code, param) => {
    const before = (await api.get(`/v1/discounts/${discountId}/triggers?limit=100`)).body;
    const response = await api.post(`/v1/discounts/${discountId}/triggers`, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code, param });
    expect((await api.get(`/v1/discounts/${discountId}/triggers?limit=100`)).body).toEqual(before);
  });

  it('answers 404 for the triggers of a discount that does not exist', async () => {
    const missing = 'dsc_01JZZZZZZZZZZZZZZZZZZZZZZZ';
    expect((await api.get(`/v1/discounts/${missing}/triggers`)).status).toBe(404);
    expect((await api.post(`/v1/discounts/${missing}/triggers`, { kind: 'min_quantity', quantity: 2 })).status).toBe(404);
  });
});

describe('discount list pagination', () => {
  const total = 25;
  let api: Client;
  let createdNewestFirst: string[];

  beforeAll(async () => {
    api = as((await createAccount()).secret_key);
    const created: string[] = [];
    for (let index = 0; index < total; index += 1) created.push((await api.post('/v1/discounts', { percent_off: (index % 100) + 1 })).body.id);
    createdNewestFirst = created.reverse();
  });

  it('answers 20 by default, newest first, and walks every discount once with starting_after', async () => {
    const first = (await api.get('/v1/discounts')).body;
    expect(first).toEqual({ object: 'list', data: expect.any(Array), has_more: true });
    expect(ids(first)).toEqual(createdNewestFirst.slice(0, 20));

    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages += 1) {
      const page = (await api.get(`/v1/discounts?limit=7${cursor ? `&starting_after=${cursor}` : ''}`)).body;
      seen.push(...ids(page));
      if (!page.has_more) break;
      cursor = page.data.at(-1).id;
    }
    expect(seen).toEqual(createdNewestFirst);
    expect(ids((await api.get('/v1/discounts?limit=0')).body)).toHaveLength(1);
  });

  it('refuses an unknown starting_after and a non-numeric limit, naming the parameter', async () => {
    const unknown = await api.get('/v1/discounts?starting_after=dsc_01JZZZZZZZZZZZZZZZZZZZZZZZ');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    const bad = await api.get('/v1/discounts?limit=many');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
  });
});

describe('discounts in test and live mode never mix', () => {
  it('hides each mode’s discounts and triggers from the other mode and from other accounts', async () => {
    const account = await createAccount();
    const test = as(account.secret_key);
    const live = as((await activateLive(account.account_id)).secret_key);
    const stranger = as((await createAccount()).secret_key);

    const testDiscount = (await test.post('/v1/discounts', { code: 'SAMECODE', percent_off: 10 })).body;
    const liveDiscount = (await live.post('/v1/discounts', { code: 'SAMECODE', percent_off: 20 })).body;
    expect(testDiscount.livemode).toBe(false);
    expect(liveDiscount).toMatchObject({ livemode: true, code: 'SAMECODE' });
    const liveTrigger = (await live.post(`/v1/discounts/${liveDiscount.id}/triggers`, { kind: 'min_quantity', quantity: 2 })).body;
    expect(liveTrigger.livemode).toBe(true);

    for (const [client, foreign] of [
      [live, testDiscount.id],
      [test, liveDiscount.id],
      [stranger, testDiscount.id],
    ] as const) {
      expect((await client.get(`/v1/discounts/${foreign}`)).status).toBe(404);
      expect((await client.patch(`/v1/discounts/${foreign}`, { active: false })).status).toBe(404);
      expect((await client.post(`/v1/discounts/${foreign}/deactivate`)).status).toBe(404);
      expect((await client.get(`/v1/discounts/${foreign}/triggers`)).status).toBe(404);
      expect((await client.post(`/v1/discounts/${foreign}/triggers`, { kind: 'min_quantity', quantity: 3 })).status).toBe(404);
    }
    expect((await test.delete(`/v1/discounts/${liveDiscount.id}/triggers/${liveTrigger.id}`)).status).toBe(404);

    expect((await walkList(test, '/v1/discounts', 100)).ids).toEqual([testDiscount.id]);
    expect((await walkList(live, '/v1/discounts', 100)).ids).toEqual([liveDiscount.id]);
    expect((await walkList(stranger, '/v1/discounts', 100)).ids).toEqual([]);
    expect((await live.get(`/v1/discounts/${liveDiscount.id}`)).body).toMatchObject({ active: true });
    expect(ids((await live.get(`/v1/discounts/${liveDiscount.id}/triggers`)).body)).toEqual([liveTrigger.id]);
  });
});
