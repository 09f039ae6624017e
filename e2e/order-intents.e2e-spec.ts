import { waitFor } from '@ticketing/testing';
import { as, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';
import { restart } from './support/processes';

type Api = ReturnType<typeof as>;
const PRICE = 2500;

/** Order intents (decision 0062): units held in catalog at creation, sold and issued as tickets once paid, released otherwise. */
describe('order intents through the gateway', () => {
  let api: Api;

  beforeAll(async () => {
    api = as((await createAccount()).secret_key);
  });

  afterAll(async () => {
    const unbalanced = await queryServiceDatabase('payments', 'SELECT transaction_id FROM ledger_entries GROUP BY transaction_id, currency HAVING SUM(amount) <> 0');
    expect(unbalanced).toEqual([]);
  });

  /** A published event with one tier of `capacity` units at PRICE (and a second tier when asked). */
  const onSale = async (capacity: number, name = 'Paid night') => {
    const event = await api.post('/v1/events', { name, starts_at: '2099-09-01T20:00:00Z', currency: 'EUR' });
    const tier = await api.post(`/v1/events/${event.body.id}/tiers`, { name: 'GA', price: PRICE, capacity });
    const vip = await api.post(`/v1/events/${event.body.id}/tiers`, { name: 'VIP', price: 2 * PRICE, capacity });
    expect((await api.patch(`/v1/events/${event.body.id}`, { status: 'published' })).status).toBe(200);
    return { eventId: event.body.id as string, tierId: tier.body.id as string, vipId: vip.body.id as string };
  };
  const counters = async (tierId: string) =>
    (await queryServiceDatabase<{ held: number; sold: number }>('catalog', 'SELECT held, sold FROM tiers WHERE id = $1', [tierId]))[0]!;
  const order = (eventId: string, items: Array<{ tier_id: string; quantity: number }>, extra: Record<string, unknown> = {}) => ({
    event_id: eventId,
    items,
    customer: { email: 'Buyer@Example.com', name: 'Bea Buyer' },
    ...extra,
  });
  const ticketsOf = async (issuanceId: string) => (await api.get(`/v1/tickets?limit=100`)).body.data.filter((ticket: { issuance_id: string }) => ticket.issuance_id === issuanceId);

  it('prices and holds an order at creation, then sells it and issues its tickets once paid', async () => {
    const { eventId, tierId, vipId } = await onSale(10);
    const created = await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: tierId, quantity: 2 }, { tier_id: vipId, quantity: 1 }]), metadata: { cart: 'c-1' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      object: 'payment_intent',
      amount: 4 * PRICE,
      currency: 'EUR',
      status: 'requires_payment_method',
      expires_at: expect.any(String),
      order: {
        event_id: eventId,
        customer: { email: 'buyer@example.com', name: 'Bea Buyer' },
        discount: null,
        subtotal: 4 * PRICE,
        discount_amount: 0,
        lines: [
          { tier_id: tierId, quantity: 2, unit_price: PRICE, amount: 2 * PRICE, issuance: expect.stringMatching(/^iss_/) },
          { tier_id: vipId, quantity: 1, unit_price: 2 * PRICE, amount: 2 * PRICE, issuance: expect.stringMatching(/^iss_/) },
        ],
      },
    });
    const expiresIn = Date.parse(created.body.expires_at) - Date.parse(created.body.created_at);
    expect(expiresIn).toBeGreaterThan(15 * 60 * 1000 - 1000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60 * 1000);
    expect(await counters(tierId)).toEqual({ held: 2, sold: 0 });

    const paid = await api.post(`/v1/payment_intents/${created.body.id}/confirm`, { payment_method: 'pm_card_visa' });
    expect(paid.body).toMatchObject({ status: 'succeeded', payment: expect.stringMatching(/^pay_/) });
    expect(await counters(tierId)).toEqual({ held: 0, sold: 2 });
    expect(await counters(vipId)).toEqual({ held: 0, sold: 1 });

    const [ga, vip] = created.body.order.lines;
    const gaTickets = await waitFor('the order’s tickets', async () => {
      const tickets = await ticketsOf(ga.issuance);
      return tickets.length === 2 ? tickets : undefined;
    });
    expect(gaTickets.map((ticket: Record<string, unknown>) => ({ tier_id: ticket.tier_id, status: ticket.status, price: ticket.price }))).toEqual([
      { tier_id: tierId, status: 'valid', price: PRICE },
      { tier_id: tierId, status: 'valid', price: PRICE },
    ]);
    await waitFor('the VIP ticket', async () => ((await ticketsOf(vip.issuance)).length === 1 ? true : undefined));
    const customer = await api.get(`/v1/customers/${gaTickets[0].customer}`);
    expect(customer.body).toMatchObject({ email: 'buyer@example.com', name: 'Bea Buyer' });
    const issuances = await queryServiceDatabase<{ payment_type: string; payment_reference: string }>('ticketing', 'SELECT payment_type, payment_reference FROM issuances WHERE id = ANY($1)', [[ga.issuance, vip.issuance]]);
    expect(issuances).toEqual([
      { payment_type: 'payment_intent', payment_reference: created.body.id },
      { payment_type: 'payment_intent', payment_reference: created.body.id },
    ]);
  });

  it('gives a refunded ticket’s price back through payments, and a refund of money alone leaves the tickets valid', async () => {
    const { eventId, tierId } = await onSale(5);
    const created = await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: tierId, quantity: 2 }]), payment_method: 'pm_card_visa' });
    const paid = await api.post(`/v1/payment_intents/${created.body.id}/confirm`);
    const tickets = await waitFor('the tickets', async () => {
      const found = await ticketsOf(created.body.order.lines[0].issuance);
      return found.length === 2 ? found : undefined;
    });
    const refunded = await api.post(`/v1/tickets/${tickets[0].id}/refund`, { reason: 'Cannot come' });
    expect(refunded.body.status).toBe('refunded');
    // Counted against the payment at once, the refund succeeds once the processor has given it back.
    const payment = await waitFor('the ticket’s refund in payments', async () => {
      const read = await api.get(`/v1/payments/${paid.body.payment}`);
      return read.body.refunds[0]?.status === 'succeeded' ? read.body : undefined;
    });
    expect(payment.amount_refunded).toBe(PRICE);
    expect(payment.refunds).toEqual([expect.objectContaining({ object: 'refund', amount: PRICE, status: 'succeeded', reason: 'Cannot come' })]);

    const money = await api.post('/v1/refunds', { payment: paid.body.payment, amount: 500, reason: 'Goodwill' }, { 'Idempotency-Key': `goodwill-${paid.body.payment}` });
    expect(money.body).toMatchObject({ object: 'refund', payment: paid.body.payment, amount: 500, status: 'succeeded' });
    const again = await api.post('/v1/refunds', { payment: paid.body.payment, amount: 500, reason: 'Goodwill' }, { 'Idempotency-Key': `goodwill-${paid.body.payment}` });
    expect(again.body.id).toBe(money.body.id);
    const tooMuch = await api.post('/v1/refunds', { payment: paid.body.payment, amount: PRICE });
    expect({ status: tooMuch.status, param: tooMuch.body.error.param }).toEqual({ status: 400, param: 'amount' });
    expect((await api.get(`/v1/payments/${paid.body.payment}`)).body.amount_refunded).toBe(PRICE + 500);
    expect((await api.get(`/v1/tickets/${tickets[1].id}`)).body.status).toBe('valid');
  });

  it('refuses an order for an event selling through its waiting room, holding nothing: orders never skip the queue', async () => {
    const { eventId, tierId } = await onSale(5);
    expect((await api.patch(`/v1/events/${eventId}`, { waiting_room: { enabled: true, admission_rate_per_minute: 60 } })).status).toBe(200);
    const refused = await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: tierId, quantity: 1 }]) });
    expect({ status: refused.status, code: refused.body.error.code, param: refused.body.error.param }).toEqual({ status: 403, code: 'admission_token_required', param: 'order.event_id' });
    expect(await counters(tierId)).toEqual({ held: 0, sold: 0 });
  });

  it('sells a seat hold’s seats: the hold is taken for the order until it is paid, and free again when it is canceled', async () => {
    const event = await api.post('/v1/events', { name: 'Seated paid night', starts_at: '2099-10-01T19:30:00Z', currency: 'EUR' });
    const stalls = await api.post(`/v1/events/${event.body.id}/tiers`, { name: 'Stalls', price: 5000, capacity: 4, seated: true });
    const seats = (labels: string[]) => labels.map((label) => ({ label, tier_id: stalls.body.id }));
    expect((await api.put(`/v1/events/${event.body.id}/seatmap`, { sections: [{ label: 'Stalls', rows: [{ label: 'A', seats: seats(['1', '2', '3', '4']) }] }] })).status).toBe(200);
    expect((await api.patch(`/v1/events/${event.body.id}`, { status: 'published' })).status).toBe(200);
    const hold = await api.post(`/v1/events/${event.body.id}/seats/hold`, { seats: ['Stalls:A:1', 'Stalls:A:2'] });
    const seatedOrder = (holdId: string, quantity = 2) => order(event.body.id, [{ tier_id: stalls.body.id, quantity }], { seat_hold_id: holdId });

    const wrongCount = await api.post('/v1/payment_intents', { order: seatedOrder(hold.body.id, 3) });
    expect({ status: wrongCount.status, param: wrongCount.body.error.param }).toEqual({ status: 400, param: 'order.items[0].quantity' });
    const created = await api.post('/v1/payment_intents', { order: seatedOrder(hold.body.id), payment_method: 'pm_card_visa' });
    expect(created.status).toBe(200);
    expect(created.body.order.lines[0]).toMatchObject({ seat_hold: hold.body.id, amount: 10_000 });
    const again = await api.post('/v1/payment_intents', { order: seatedOrder(hold.body.id) });
    expect({ status: again.status, code: again.body.error.code }).toEqual({ status: 409, code: 'seat_hold_unavailable' });

    expect((await api.post(`/v1/payment_intents/${created.body.id}/confirm`)).body.status).toBe('succeeded');
    const tickets = await waitFor('the seated tickets', async () => {
      const found = await ticketsOf(created.body.order.lines[0].issuance);
      return found.length === 2 ? found : undefined;
    });
    expect(tickets.map((ticket: { seat: string }) => ticket.seat).sort()).toEqual(['Stalls:A:1', 'Stalls:A:2']);

    const other = await api.post(`/v1/events/${event.body.id}/seats/hold`, { seats: ['Stalls:A:3'] });
    const canceledOrder = await api.post('/v1/payment_intents', { order: seatedOrder(other.body.id, 1) });
    expect((await api.post(`/v1/payment_intents/${canceledOrder.body.id}/cancel`)).body.status).toBe('canceled');
    const reordered = await api.post('/v1/payment_intents', { order: seatedOrder(other.body.id, 1) });
    expect(reordered.status).toBe(200);
  });

  it('refuses an order whose units cannot all be held with sold_out, holding nothing', async () => {
    const { eventId, tierId, vipId } = await onSale(3);
    const refused = await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: vipId, quantity: 1 }, { tier_id: tierId, quantity: 4 }]) });
    expect({ status: refused.status, code: refused.body.error.code, param: refused.body.error.param }).toEqual({ status: 409, code: 'sold_out', param: 'order.items[1].tier_id' });
    expect(await counters(tierId)).toEqual({ held: 0, sold: 0 });
    expect(await counters(vipId)).toEqual({ held: 0, sold: 0 });
  });

  it('gives the units back when the intent is canceled, and refuses to confirm it after', async () => {
    const { eventId, tierId } = await onSale(3);
    const created = await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: tierId, quantity: 3 }]) });
    expect(await counters(tierId)).toEqual({ held: 3, sold: 0 });
    expect((await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: tierId, quantity: 1 }]) })).status).toBe(409);

    const canceled = await api.post(`/v1/payment_intents/${created.body.id}/cancel`);
    expect(canceled.body).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_customer', canceled_at: expect.any(String) });
    expect(await counters(tierId)).toEqual({ held: 0, sold: 0 });
    const confirm = await api.post(`/v1/payment_intents/${created.body.id}/confirm`, { payment_method: 'pm_card_visa' });
    expect({ status: confirm.status, code: confirm.body.error.code }).toEqual({ status: 409, code: 'payment_intent_unexpected_state' });
    const again = await api.post(`/v1/payment_intents/${created.body.id}/cancel`);
    expect(again.status).toBe(409);
  });

  it('keeps the order held through a declined card, then issues its tickets once another card pays', async () => {
    const { eventId, tierId } = await onSale(5);
    const created = await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: tierId, quantity: 1 }]), payment_method: 'pm_card_chargeDeclined' });
    const declined = await api.post(`/v1/payment_intents/${created.body.id}/confirm`);
    expect(declined.body).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } });
    expect(await counters(tierId)).toEqual({ held: 1, sold: 0 });
    expect((await api.post(`/v1/payment_intents/${created.body.id}/confirm`, { payment_method: 'pm_card_visa' })).body.status).toBe('succeeded');
    await waitFor('the ticket', async () => ((await ticketsOf(created.body.order.lines[0].issuance)).length === 1 ? true : undefined));
    expect(await counters(tierId)).toEqual({ held: 0, sold: 1 });
  });

  it('prices an order with the buyer’s discount code and counts it once', async () => {
    const { eventId, tierId } = await onSale(5);
    const code = `HALF${Date.now()}`;
    const discount = await api.post('/v1/discounts', { code, percent_off: 50, applies_to: { event_ids: [eventId] } });
    const created = await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: tierId, quantity: 2 }], { discount_code: code.toLowerCase() }) });
    expect(created.body).toMatchObject({ amount: PRICE, order: { subtotal: 2 * PRICE, discount_amount: PRICE, discount: discount.body.id } });
    expect((await api.post(`/v1/payment_intents/${created.body.id}/confirm`, { payment_method: 'pm_card_visa' })).body.status).toBe('succeeded');
    expect((await api.get(`/v1/discounts/${discount.body.id}`)).body.times_redeemed).toBe(1);
    const tickets = await waitFor('the discounted tickets', async () => {
      const found = await ticketsOf(created.body.order.lines[0].issuance);
      return found.length === 2 ? found : undefined;
    });
    expect(tickets.map((ticket: { price: number }) => ticket.price)).toEqual([PRICE / 2, PRICE / 2]);
  });

  it('refuses a price or another currency given with an order, and an order that cannot be paid for', async () => {
    const { eventId, tierId } = await onSale(5);
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ order: order(eventId, [{ tier_id: tierId, quantity: 1 }]), amount: 100 }, 400, 'parameter_invalid', 'amount'],
      [{ order: order(eventId, [{ tier_id: tierId, quantity: 1 }]), currency: 'USD' }, 400, 'parameter_invalid', 'currency'],
      [{ order: order(eventId, [{ tier_id: tierId, quantity: 1 }, { tier_id: tierId, quantity: 1 }]) }, 400, 'parameter_invalid', 'order.items[1].tier_id'],
      [{ order: order(eventId, []) }, 400, 'parameter_invalid', 'order.items'],
      [{ order: { event_id: eventId, items: [{ tier_id: tierId, quantity: 1 }] } }, 400, 'parameter_missing', 'order.customer'],
      [{ order: order(eventId, [{ tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3', quantity: 1 }]) }, 400, 'resource_missing', 'order.items[0].tier_id'],
    ];
    for (const [body, status, code, param] of cases) {
      const refused = await api.post('/v1/payment_intents', body);
      expect({ body, status: refused.status, code: refused.body.error?.code, param: refused.body.error?.param }).toEqual({ body, status, code, param });
    }
    expect(await counters(tierId)).toEqual({ held: 0, sold: 0 });
    expect((await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: tierId, quantity: 1 }]), currency: 'eur' })).status).toBe(200);
  });

  describe('when an order is not paid in time', () => {
    beforeAll(() => restart('payments', { ORDER_LIFETIME_SECONDS: '2', ORDER_EXPIRY_SWEEP_INTERVAL_MS: '200' }));
    afterAll(() => restart('payments'));

    it('cancels the intent and gives its seats and units back', async () => {
      const eventId: string = (await api.post('/v1/events', { name: 'Unpaid night', starts_at: '2099-09-01T20:00:00Z', currency: 'EUR' })).body.id;
      const tierId: string = (await api.post(`/v1/events/${eventId}/tiers`, { name: 'GA', price: PRICE, capacity: 2 })).body.id;
      const stalls = await api.post(`/v1/events/${eventId}/tiers`, { name: 'Stalls', price: 5000, capacity: 2, seated: true });
      const seat = [{ label: '1', tier_id: stalls.body.id }];
      expect((await api.put(`/v1/events/${eventId}/seatmap`, { sections: [{ label: 'Stalls', rows: [{ label: 'A', seats: seat }] }] })).status).toBe(200);
      expect((await api.patch(`/v1/events/${eventId}`, { status: 'published' })).status).toBe(200);
      const hold = await api.post(`/v1/events/${eventId}/seats/hold`, { seats: ['Stalls:A:1'], ttl_seconds: 600 });
      const created = await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: tierId, quantity: 2 }, { tier_id: stalls.body.id, quantity: 1 }], { seat_hold_id: hold.body.id }) });
      expect(created.status).toBe(200);
      expect(await counters(tierId)).toEqual({ held: 2, sold: 0 });
      expect(await counters(stalls.body.id)).toEqual({ held: 1, sold: 0 });
      const expired = await waitFor('the expiry', async () => {
        const read = await api.get(`/v1/payment_intents/${created.body.id}`);
        return read.body.status === 'canceled' ? read.body : undefined;
      });
      expect(expired).toMatchObject({ cancellation_reason: 'expired' });
      expect(await counters(tierId)).toEqual({ held: 0, sold: 0 });
      expect(await counters(stalls.body.id)).toEqual({ held: 0, sold: 0 });
      // The seat hold is the buyer's again: another order can take it.
      const retaken = await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: stalls.body.id, quantity: 1 }], { seat_hold_id: hold.body.id }) });
      expect(retaken.status).toBe(200);
      await api.post(`/v1/payment_intents/${retaken.body.id}/cancel`);
      const late = await api.post(`/v1/payment_intents/${created.body.id}/confirm`, { payment_method: 'pm_card_visa' });
      expect({ status: late.status, code: late.body.error.code }).toEqual({ status: 409, code: 'payment_intent_unexpected_state' });
      expect((await api.post('/v1/payment_intents', { order: order(eventId, [{ tier_id: tierId, quantity: 2 }]) })).status).toBe(200);
    });
  });
});
