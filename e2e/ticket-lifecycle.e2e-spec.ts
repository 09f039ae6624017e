import { waitFor } from '@ticketing/testing';
import { activateLive, as, createAccount, type ApiResponse } from './support/api';
import { doorDevice } from './support/door-device';
import { ids } from './support/lists';
import { onSale, PRICE, sale } from './support/on-sale';
import type { Client } from './support/lists';

/** One valid ticket of a new account's event, with the tier it counts against. */
async function oneTicket(api: Client, tier: Record<string, unknown> = {}) {
  const { eventId, tierId } = await onSale(api, tier);
  const issued = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId, { quantity: 1, payment: { type: 'external', reference: 'order-1', amount: PRICE } }));
  expect(issued.status).toBe(200);
  return { eventId, tierId, ticket: issued.body.tickets[0] };
}

const tierCounters = async (api: Client, eventId: string) => {
  const { held, sold, available } = (await api.get(`/v1/events/${eventId}/tiers`)).body.data[0];
  return { held, sold, available };
};

describe('ticket lifecycle through the gateway', () => {
  it('transfers a ticket to a new holder, with a new code; the old code is of an older version', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, ticket } = await oneTicket(api);
    const door = await doorDevice(api);

    const transferred = await api.post(`/v1/tickets/${ticket.id}/transfer`, { customer: { email: 'Bo@Example.com', name: 'Bo Chen' } });
    expect(transferred.status).toBe(200);
    expect(transferred.body).toMatchObject({ id: ticket.id, status: 'valid', code_version: 2, price: PRICE, issuance_id: ticket.issuance_id });
    expect(transferred.body.customer).not.toBe(ticket.customer);
    expect(transferred.body.code).not.toBe(ticket.code);
    expect(door.verify(transferred.body.code)).toEqual({ sub: ticket.id, evt: eventId, ver: 2 });
    expect(door.verify(ticket.code)).toEqual({ sub: ticket.id, evt: eventId, ver: 1 });
    expect((await api.get(`/v1/customers/${transferred.body.customer}`)).body).toMatchObject({ email: 'bo@example.com', name: 'Bo Chen' });
    expect((await api.get(`/v1/tickets/${ticket.id}`)).body).toEqual(transferred.body);
    expect(ids((await api.get(`/v1/tickets?customer=${ticket.customer}`)).body)).toEqual([]);
    expect(ids((await api.get(`/v1/tickets?customer=${transferred.body.customer}`)).body)).toEqual([ticket.id]);

    const back = await api.post(`/v1/tickets/${ticket.id}/transfer`, { customer_id: ticket.customer });
    expect(back.body).toMatchObject({ customer: ticket.customer, code_version: 3 });
    expect(await tierCounters(api, eventId)).toEqual({ held: 0, sold: 1, available: 9 });
  });

  it('refunds and revokes valid tickets, putting their units back on sale; a retired ticket changes no more', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSale(api, { capacity: 3 });
    const issued = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId, { quantity: 3, payment: { type: 'external', reference: 'o', amount: 3 * PRICE } }));
    const [first, second, third] = issued.body.tickets;
    expect(await tierCounters(api, eventId)).toEqual({ held: 0, sold: 3, available: 0 });

    const refunded = await api.post(`/v1/tickets/${first.id}/refund`, { reason: 'Cannot attend' });
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({ id: first.id, status: 'refunded', code_version: 1 });
    const revoked = await api.post(`/v1/tickets/${second.id}/revoke`, { reason: 'Resold in breach of the terms' });
    expect(revoked.body).toMatchObject({ id: second.id, status: 'revoked' });
    const thirdRefund = await api.post(`/v1/tickets/${third.id}/refund`);
    expect(thirdRefund.body).toMatchObject({ status: 'refunded' });
    expect(await tierCounters(api, eventId)).toEqual({ held: 0, sold: 0, available: 3 });
    expect(ids((await api.get(`/v1/tickets?event_id=${eventId}&status=refunded`)).body)).toEqual([third.id, first.id]);

    for (const [path, body] of [
      [`/v1/tickets/${first.id}/refund`, {}],
      [`/v1/tickets/${first.id}/revoke`, { reason: 'x' }],
      [`/v1/tickets/${second.id}/transfer`, { customer: { email: 'bo@example.com' } }],
    ] as const) {
      const refused = await api.post(path, body);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'ticket_not_valid', message: expect.stringContaining('only a valid ticket') });
    }
    expect(await tierCounters(api, eventId)).toEqual({ held: 0, sold: 0, available: 3 });
    expect((await api.post(`/v1/events/${eventId}/tickets`, sale(tierId, { quantity: 3, payment: { type: 'external', reference: 'o2', amount: 3 * PRICE } }))).status).toBe(200);
  });

  it('gives a comp’s unit back when it is revoked', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSale(api, { capacity: 1 });
    const comp = await api.post(`/v1/events/${eventId}/comps`, { tier_id: tierId, customer: { email: 'guest@example.com' }, reason: 'Press' });
    expect((await api.post(`/v1/tickets/${comp.body.tickets[0].id}/revoke`, { reason: 'Press pass withdrawn' })).body.status).toBe('revoked');
    expect(await tierCounters(api, eventId)).toEqual({ held: 0, sold: 0, available: 1 });
  });

  it('refuses bad changes with a clear error and changes nothing', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, ticket } = await oneTicket(api);
    const refusals: Array<[string, unknown, number, string, string?]> = [
      [`/v1/tickets/${ticket.id}/transfer`, {}, 400, 'parameter_missing', 'customer'],
      [`/v1/tickets/${ticket.id}/transfer`, { customer_id: ticket.customer }, 409, 'ticket_already_held', 'customer_id'],
      [`/v1/tickets/${ticket.id}/transfer`, { customer: { email: 'ANN@example.com' } }, 409, 'ticket_already_held', 'customer'],
      [`/v1/tickets/${ticket.id}/transfer`, { customer_id: 'cus_01JD3WB5C7E9G1J3L5N7Q9S1U3' }, 400, 'resource_missing', 'customer_id'],
      [`/v1/tickets/${ticket.id}/transfer`, { customer: { email: 'not-an-email' } }, 400, 'parameter_invalid', 'customer.email'],
      [`/v1/tickets/${ticket.id}/revoke`, {}, 400, 'parameter_missing', 'reason'],
      [`/v1/tickets/${ticket.id}/revoke`, { reason: ' ' }, 400, 'parameter_invalid', 'reason'],
      [`/v1/tickets/${ticket.id}/refund`, { reason: 'x'.repeat(501) }, 400, 'parameter_invalid', 'reason'],
      [`/v1/tickets/${ticket.id}/refund`, { amount: 5 }, 400, 'parameter_unknown', 'amount'],
      ['/v1/tickets/tkt_01JD3WB5C7E9G1J3L5N7Q9S1U3/refund', {}, 404, 'resource_missing'],
    ];
    for (const [path, body, status, code, param] of refusals) {
      const refused = await api.post(path, body);
      expect({ path, body, status: refused.status, code: refused.body.error?.code }).toEqual({ path, body, status, code });
      if (param) expect({ path, body, param: refused.body.error.param }).toEqual({ path, body, param });
    }
    expect((await api.get(`/v1/tickets/${ticket.id}`)).body).toEqual(ticket);
    expect(await tierCounters(api, eventId)).toEqual({ held: 0, sold: 1, available: 9 });
  });

  it('lets one of many concurrent copies of a transfer win (a double submit); every other gets 409', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, ticket } = await oneTicket(api);
    const answers = await Promise.all(Array.from({ length: 6 }, () => api.post(`/v1/tickets/${ticket.id}/transfer`, { customer: { email: 'bo@example.com' } })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = answers.find((answer) => answer.status === 200)!;
    expect((await api.get(`/v1/tickets?event_id=${eventId}&status=valid`)).body.data).toEqual([winner.body]);
    expect(await tierCounters(api, eventId)).toEqual({ held: 0, sold: 1, available: 9 });
  });

  it('lets one of two concurrent changes of a ticket win; the other gets 409', async () => {
    const api = as((await createAccount()).secret_key);
    type Change = { action: string; body: Record<string, unknown> };
    // Each second change is refused whichever order they land in (a transfer and then a refund
    // would both be right, one after the other, so such a pair proves nothing).
    const pairs: Array<[Change, Change]> = [
      [{ action: 'refund', body: {} }, { action: 'refund', body: {} }],
      [{ action: 'refund', body: {} }, { action: 'revoke', body: { reason: 'Fraud' } }],
    ];
    for (const [first, second] of pairs) {
      const { eventId, ticket } = await oneTicket(api);
      const answers = await Promise.all([first, second].map(({ action, body }) => api.post(`/v1/tickets/${ticket.id}/${action}`, body)));
      const statuses = answers.map((answer) => answer.status).sort();
      expect({ pair: [first.action, second.action], statuses }).toEqual({ pair: [first.action, second.action], statuses: [200, 409] });
      const loser = answers.find((answer) => answer.status === 409)!;
      expect(['ticket_changed', 'ticket_not_valid', 'ticket_already_held']).toContain(loser.body.error.code);
      const winner = answers.find((answer) => answer.status === 200)!;
      expect((await api.get(`/v1/tickets/${ticket.id}`)).body).toEqual(winner.body);
      expect((await tierCounters(api, eventId)).sold).toBe(winner.body.status === 'valid' ? 1 : 0);
    }
  });

  it('answers a retried change under the same Idempotency-Key with the first answer, changing once', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, ticket } = await oneTicket(api);
    const headers = { 'idempotency-key': `refund-${ticket.id}` };
    const first = await api.post(`/v1/tickets/${ticket.id}/refund`, { reason: 'Duplicate' }, headers);
    const retry = await api.post(`/v1/tickets/${ticket.id}/refund`, { reason: 'Duplicate' }, headers);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await tierCounters(api, eventId)).toEqual({ held: 0, sold: 0, available: 10 });
  });

  it('keeps accounts apart, and needs tickets:manage', async () => {
    const owner = as((await createAccount()).secret_key);
    const { eventId, ticket } = await oneTicket(owner);
    const stranger = as((await createAccount()).secret_key);
    expect((await stranger.post(`/v1/tickets/${ticket.id}/revoke`, { reason: 'x' })).status).toBe(404);
    const reader = as((await owner.post('/v1/account/keys', { label: 'reader', scopes: ['tickets:read', 'tickets:issue'] })).body.secret);
    const refused = await reader.post(`/v1/tickets/${ticket.id}/refund`, {});
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 403,
      body: { error: { type: 'authorization_error', code: 'forbidden', message: 'Missing required scope: tickets:manage', request_id: refused.headers.get('request-id') } },
    });
    expect((await owner.get(`/v1/tickets/${ticket.id}`)).body).toEqual(ticket);
    expect(await tierCounters(owner, eventId)).toEqual({ held: 0, sold: 1, available: 9 });
  });

  it('answers 404 to another account’s key and to the live key of the same account for every change of a test ticket, and changes nothing', async () => {
    const owner = await createAccount();
    const api = as(owner.secret_key);
    const { eventId, ticket } = await oneTicket(api);
    const vip = (await api.post(`/v1/events/${eventId}/tiers`, { name: 'VIP', price: 9000, capacity: 5, rank: 2 })).body.id as string;
    const others = { stranger: as((await createAccount()).secret_key), live: as((await activateLive(owner.account_id)).secret_key) };
    for (const [key, other] of Object.entries(others)) {
      const attempts: Array<[string, () => Promise<ApiResponse>]> = [
        ['transfer', () => other.post(`/v1/tickets/${ticket.id}/transfer`, { customer: { email: 'bo@example.com' } })],
        ['refund', () => other.post(`/v1/tickets/${ticket.id}/refund`, {})],
        ['revoke', () => other.post(`/v1/tickets/${ticket.id}/revoke`, { reason: 'Fraud' })],
        ['upgrade', () => other.post(`/v1/tickets/${ticket.id}/upgrade`, { tier_id: vip, payment: { type: 'external', reference: 'up', amount: 9000 - PRICE } })],
        ['upgrade-options', () => other.get(`/v1/tickets/${ticket.id}/upgrade-options`)],
        ['delivery_link', () => other.post(`/v1/tickets/${ticket.id}/delivery_link`, {})],
      ];
      for (const [action, attempt] of attempts) {
        const refused = await attempt();
        expect({ key, action, status: refused.status, code: refused.body.error?.code, message: refused.body.error?.message }).toEqual({
          key,
          action,
          status: 404,
          code: 'resource_missing',
          message: `No such ticket: '${ticket.id}'`,
        });
      }
      expect((await other.get('/v1/tickets')).body.data).toEqual([]);
    }
    expect((await api.get(`/v1/tickets/${ticket.id}`)).body).toEqual(ticket);
    const tiers = (await api.get(`/v1/events/${eventId}/tiers`)).body.data.map(({ id, held, sold }: { id: string; held: number; sold: number }) => ({ id, held, sold }));
    expect(tiers).toEqual([
      { id: vip, held: 0, sold: 0 },
      { id: ticket.tier_id, held: 0, sold: 1 },
    ]);
  });

  it('refuses another account’s customer as a ticket’s new holder, and changes nothing for either account', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, ticket } = await oneTicket(api);
    const stranger = as((await createAccount()).secret_key);
    const theirs = await oneTicket(stranger);
    const refused = await api.post(`/v1/tickets/${ticket.id}/transfer`, { customer_id: theirs.ticket.customer });
    expect({ status: refused.status, error: refused.body.error }).toMatchObject({
      status: 400,
      error: { code: 'resource_missing', param: 'customer_id', message: `No such customer: '${theirs.ticket.customer}'` },
    });
    expect((await api.get(`/v1/tickets/${ticket.id}`)).body).toEqual(ticket);
    expect(await tierCounters(api, eventId)).toEqual({ held: 0, sold: 1, available: 9 });
    expect(ids((await stranger.get(`/v1/tickets?customer=${theirs.ticket.customer}`)).body)).toEqual([theirs.ticket.id]);
    expect((await stranger.get(`/v1/tickets/${theirs.ticket.id}`)).body).toEqual(theirs.ticket);
  });
});

describe('a canceled event', () => {
  it('cancels its valid tickets; refunded ones stay refunded, and canceled ones change no more', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSale(api);
    const issued = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId, { quantity: 3, payment: { type: 'external', reference: 'o', amount: 3 * PRICE } }));
    const [first, second, third] = issued.body.tickets;
    await api.post(`/v1/tickets/${first.id}/refund`, {});
    expect((await api.patch(`/v1/events/${eventId}`, { status: 'canceled' })).status).toBe(200);

    // Ticketing applies catalog's event.canceled from Kafka.
    await waitFor(`tickets of ${eventId} canceled`, async () => ((await api.get(`/v1/tickets/${third.id}`)).body.status === 'canceled' ? true : undefined));
    expect((await api.get(`/v1/tickets/${second.id}`)).body.status).toBe('canceled');
    expect((await api.get(`/v1/tickets/${first.id}`)).body.status).toBe('refunded');
    const refused = await api.post(`/v1/tickets/${second.id}/transfer`, { customer: { email: 'bo@example.com' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ticket_not_valid');
    expect(ids((await api.get(`/v1/tickets?event_id=${eventId}&status=canceled`)).body)).toEqual([third.id, second.id]);
  });

  it('cancels the comps of a draft event called off before its on-sale', async () => {
    const api = as((await createAccount()).secret_key);
    const event = (await api.post('/v1/events', { name: 'Never opened', starts_at: '2099-09-01T20:00:00Z', currency: 'EUR' })).body;
    const tier = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'GA', price: PRICE, capacity: 10 })).body;
    const comp = await api.post(`/v1/events/${event.id}/comps`, { tier_id: tier.id, quantity: 2, customer: { email: 'guest@example.com' }, reason: 'Press' });
    expect(comp.status).toBe(200);
    expect((await api.patch(`/v1/events/${event.id}`, { status: 'canceled' })).body.status).toBe('canceled');
    const [first, second] = comp.body.tickets;
    await waitFor(`comps of ${event.id} canceled`, async () => ((await api.get(`/v1/tickets/${second.id}`)).body.status === 'canceled' ? true : undefined));
    expect((await api.get(`/v1/tickets/${first.id}`)).body.status).toBe('canceled');
  });
});

describe('upgrade options', () => {
  it('lists the event’s higher-rank tiers on sale with the price difference and what is left, paginated', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, ticket } = await oneTicket(api);
    const tier = async (name: string, rank: number, price: number, fields = {}) =>
      (await api.post(`/v1/events/${eventId}/tiers`, { name, price, capacity: 5, rank, ...fields })).body.id as string;
    await tier('Standing', 0, 1500);
    const vip = await tier('VIP', 2, 9000);
    const box = await tier('Box', 3, 2000);
    // Ranked above, but its sales open next year: an upgrade to it would be refused.
    await tier('Lounge', 4, 12000, { sales_start_at: new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString() });
    // Ranked above, but sold two at a time: no single ticket moves there.
    await tier('Pairs', 5, 3000, { min_per_order: 2 });
    await api.post(`/v1/events/${eventId}/tickets`, sale(vip, { quantity: 2, payment: { type: 'external', reference: 'v', amount: 18000 } }));
    // The ticket's own tier costs less now: the difference is still from what the ticket was sold for.
    expect((await api.patch(`/v1/events/${eventId}/tiers/${ticket.tier_id}`, { price: 500 })).status).toBe(200);

    const options = await api.get(`/v1/tickets/${ticket.id}/upgrade-options`);
    expect(options.status).toBe(200);
    expect(options.body).toEqual({
      object: 'list',
      data: [
        { id: box, object: 'upgrade_option', tier_id: box, name: 'Box', rank: 3, price: 2000, currency: 'EUR', price_difference: 0, available: 5 },
        { id: vip, object: 'upgrade_option', tier_id: vip, name: 'VIP', rank: 2, price: 9000, currency: 'EUR', price_difference: 9000 - PRICE, available: 3 },
      ],
      has_more: false,
    });
    const first = await api.get(`/v1/tickets/${ticket.id}/upgrade-options?limit=1`);
    expect(first.body).toMatchObject({ data: [{ id: box }], has_more: true });
    expect((await api.get(`/v1/tickets/${ticket.id}/upgrade-options?limit=1&starting_after=${first.body.data[0].id}`)).body).toMatchObject({ data: [{ id: vip }], has_more: false });
    // The first page's tier stops selling mid-walk: it still marks the walk's place.
    expect((await api.patch(`/v1/events/${eventId}/tiers/${box}`, { sales_end_at: new Date(Date.now() - 60_000).toISOString() })).status).toBe(200);
    expect((await api.get(`/v1/tickets/${ticket.id}/upgrade-options?limit=1&starting_after=${box}`)).body).toMatchObject({ data: [{ id: vip }], has_more: false });
    expect((await api.get(`/v1/tickets/${ticket.id}/upgrade-options`)).body.data.map((option: { id: string }) => option.id)).toEqual([vip]);

    await api.post(`/v1/tickets/${ticket.id}/refund`, {});
    expect((await api.get(`/v1/tickets/${ticket.id}/upgrade-options`)).body.error).toMatchObject({ code: 'ticket_not_valid' });
  });

  it('offers no upgrade once the event is no longer on sale', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, ticket } = await oneTicket(api);
    expect((await api.post(`/v1/events/${eventId}/tiers`, { name: 'VIP', price: 9000, capacity: 5, rank: 2 })).status).toBe(200);
    expect((await api.get(`/v1/tickets/${ticket.id}/upgrade-options`)).body.data).toHaveLength(1);
    expect((await api.patch(`/v1/events/${eventId}`, { status: 'completed' })).status).toBe(200);
    expect((await api.get(`/v1/tickets/${ticket.id}/upgrade-options`)).body).toEqual({ object: 'list', data: [], has_more: false });
  });
});

describe('upgrades', () => {
  /** One GA ticket (rank 0, PRICE) and a VIP tier (rank 2, 9000) of the same event. */
  async function gaAndVip(api: Client, vipCapacity = 5) {
    const { eventId, tierId, ticket } = await oneTicket(api);
    const vip = (await api.post(`/v1/events/${eventId}/tiers`, { name: 'VIP', price: 9000, capacity: vipCapacity, rank: 2 })).body.id as string;
    return { eventId, gaId: tierId, vip, ticket };
  }
  const counters = async (api: Client, eventId: string) =>
    Object.fromEntries(((await api.get(`/v1/events/${eventId}/tiers`)).body.data as Array<{ id: string; sold: number; held: number }>).map((tier) => [tier.id, { sold: tier.sold, held: tier.held }]));
  const difference = 9000 - PRICE;

  it('moves a ticket to a higher tier for the difference: new tier, price and code, the old unit back on sale', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, gaId, vip, ticket } = await gaAndVip(api);
    const door = await doorDevice(api);
    const upgraded = await api.post(`/v1/tickets/${ticket.id}/upgrade`, { tier_id: vip, payment: { type: 'external', reference: 'up-1', amount: difference } });
    expect(upgraded.status).toBe(200);
    expect(upgraded.body).toMatchObject({ id: ticket.id, tier_id: vip, price: 9000, status: 'valid', code_version: 2, customer: ticket.customer });
    expect(door.verify(upgraded.body.code)).toEqual({ sub: ticket.id, evt: eventId, ver: 2 });
    expect((await api.get(`/v1/tickets/${ticket.id}`)).body).toEqual(upgraded.body);
    expect(await counters(api, eventId)).toEqual({ [gaId]: { sold: 0, held: 0 }, [vip]: { sold: 1, held: 0 } });

    // Its unit is now sold under the upgrade: a refund gives back the VIP unit.
    expect((await api.post(`/v1/tickets/${ticket.id}/refund`, {})).body.status).toBe('refunded');
    expect(await counters(api, eventId)).toEqual({ [gaId]: { sold: 0, held: 0 }, [vip]: { sold: 0, held: 0 } });
  });

  it('refuses a bad upgrade with a clear error and changes nothing', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, gaId, vip, ticket } = await gaAndVip(api, 1);
    const lower = (await api.post(`/v1/events/${eventId}/tiers`, { name: 'Standing', price: 1000, capacity: 5, rank: 0 })).body.id as string;
    const pay = (amount: number) => ({ type: 'external', reference: 'up', amount });
    const refusals: Array<[Record<string, unknown>, number, string, string?]> = [
      [{ tier_id: vip }, 400, 'parameter_missing', 'payment'],
      [{ tier_id: vip, payment: pay(difference - 1) }, 400, 'parameter_invalid', 'payment.amount'],
      [{ tier_id: lower }, 400, 'parameter_invalid', 'tier_id'],
      [{ tier_id: gaId }, 409, 'ticket_changed', 'tier_id'],
      [{ tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3', payment: pay(1) }, 400, 'resource_missing', 'tier_id'],
      [{}, 400, 'parameter_missing', 'tier_id'],
    ];
    for (const [body, status, code, param] of refusals) {
      const refused = await api.post(`/v1/tickets/${ticket.id}/upgrade`, body);
      expect({ body, status: refused.status, code: refused.body.error?.code, param: refused.body.error?.param }).toEqual({ body, status, code, param });
    }
    await api.post(`/v1/events/${eventId}/tickets`, sale(vip, { quantity: 1, payment: { type: 'external', reference: 'v', amount: 9000 } }));
    const soldOut = await api.post(`/v1/tickets/${ticket.id}/upgrade`, { tier_id: vip, payment: pay(difference) });
    expect(soldOut.status).toBe(409);
    expect(soldOut.body.error.code).toBe('sold_out');
    expect((await api.get(`/v1/tickets/${ticket.id}`)).body).toEqual(ticket);
    expect(await counters(api, eventId)).toEqual({ [gaId]: { sold: 1, held: 0 }, [vip]: { sold: 1, held: 0 }, [lower]: { sold: 0, held: 0 } });
  });

  it('refuses another account’s tier as the new tier, and changes nothing for either account', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, gaId, vip, ticket } = await gaAndVip(api);
    const stranger = as((await createAccount()).secret_key);
    const theirs = await gaAndVip(stranger);
    const refused = await api.post(`/v1/tickets/${ticket.id}/upgrade`, { tier_id: theirs.vip, payment: { type: 'external', reference: 'up', amount: difference } });
    expect({ status: refused.status, error: refused.body.error }).toMatchObject({ status: 400, error: { code: 'resource_missing', param: 'tier_id', message: `No such tier: '${theirs.vip}'` } });
    expect((await api.get(`/v1/tickets/${ticket.id}`)).body).toEqual(ticket);
    expect(await counters(api, eventId)).toEqual({ [gaId]: { sold: 1, held: 0 }, [vip]: { sold: 0, held: 0 } });
    expect(await counters(stranger, theirs.eventId)).toEqual({ [theirs.gaId]: { sold: 1, held: 0 }, [theirs.vip]: { sold: 0, held: 0 } });
    expect((await stranger.get(`/v1/tickets?tier_id=${theirs.vip}`)).body.data).toEqual([]);
  });

  it('keeps a ticket and its tiers consistent when an upgrade, a transfer and a refund race on it: each is applied whole or refused with 409', async () => {
    const api = as((await createAccount()).secret_key);
    for (let round = 0; round < 3; round += 1) {
      const { eventId, gaId, vip, ticket } = await gaAndVip(api);
      const answers = await Promise.all([
        api.post(`/v1/tickets/${ticket.id}/upgrade`, { tier_id: vip, payment: { type: 'external', reference: `up-${round}`, amount: difference } }),
        api.post(`/v1/tickets/${ticket.id}/transfer`, { customer: { email: `bo${round}@example.com` } }),
        api.post(`/v1/tickets/${ticket.id}/refund`, {}),
      ]);
      // One after another, an upgrade and a transfer may both apply; nothing applies after a refund.
      expect(answers.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body.error.code])).toEqual(
        answers.filter((answer) => answer.status !== 200).map(() => [409, expect.stringMatching(/^(ticket_changed|ticket_not_valid|ticket_already_held)$/)]),
      );
      const [upgraded, transferred, refunded] = answers.map((answer) => answer.status === 200);
      const now = (await api.get(`/v1/tickets/${ticket.id}`)).body;
      expect({ status: now.status, tier: now.tier_id }).toEqual({ status: refunded ? 'refunded' : 'valid', tier: upgraded ? vip : gaId });
      expect({ holderChanged: now.customer !== ticket.customer }).toEqual({ holderChanged: transferred });
      const soldIn = (tierId: string) => (now.status === 'valid' && now.tier_id === tierId ? 1 : 0);
      expect(await counters(api, eventId)).toEqual({ [gaId]: { sold: soldIn(gaId), held: 0 }, [vip]: { sold: soldIn(vip), held: 0 } });
    }
  });

  it('lets one of two concurrent upgrades of a ticket win; the other gets 409 and holds nothing', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, gaId, vip, ticket } = await gaAndVip(api);
    const body = { tier_id: vip, payment: { type: 'external', reference: 'up', amount: difference } };
    const answers = await Promise.all([api.post(`/v1/tickets/${ticket.id}/upgrade`, body), api.post(`/v1/tickets/${ticket.id}/upgrade`, body)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.error.code).toBe('ticket_changed');
    expect(await counters(api, eventId)).toEqual({ [gaId]: { sold: 0, held: 0 }, [vip]: { sold: 1, held: 0 } });
  });
});
