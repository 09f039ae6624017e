import { as, createAccount } from './support/api';
import type { Client } from './support/lists';
import { onSale, PRICE } from './support/on-sale';

/** The tier's counters, read through the public API. */
async function tierCounts(api: Client, eventId: string, tierId: string): Promise<{ capacity: number; held: number; sold: number }> {
  const tiers = await api.get(`/v1/events/${eventId}/tiers`);
  expect(tiers.status).toBe(200);
  const tier = tiers.body.data.find((candidate: { id: string }) => candidate.id === tierId);
  expect(tier).toBeDefined();
  return { capacity: tier.capacity, held: tier.held, sold: tier.sold };
}

async function timesRedeemed(api: Client, discountId: string): Promise<number> {
  const discount = await api.get(`/v1/discounts/${discountId}`);
  expect(discount.status).toBe(200);
  return discount.body.times_redeemed;
}

/** A sale of `quantity` tickets to `email` paying `amount`, with a discount code when given. */
function order(tierId: string, options: { quantity: number; email: string; amount: number; reference: string; discount_code?: string }) {
  return {
    tier_id: tierId,
    quantity: options.quantity,
    customer: { email: options.email },
    payment: { type: 'external', reference: options.reference, amount: options.amount },
    ...(options.discount_code === undefined ? {} : { discount_code: options.discount_code }),
  };
}

const pricesOf = (issuance: { tickets: Array<{ price: number }> }): number[] => issuance.tickets.map((ticket) => ticket.price);
const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

describe('a discount code at issuance', () => {
  const AMOUNT_OFF = 500;
  let api: Client;
  let eventId: string;
  let tierId: string;
  let discountId: string;
  let code: string;

  beforeAll(async () => {
    api = as((await createAccount()).secret_key);
    ({ eventId, tierId } = await onSale(api));
    code = `SAVE5-${Date.now()}`;
    const created = await api.post('/v1/discounts', { code, amount_off: AMOUNT_OFF, currency: 'EUR', applies_to: { event_ids: [eventId] }, max_redemptions: 2 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ code: code.toUpperCase(), amount_off: AMOUNT_OFF, max_redemptions: 2, times_redeemed: 0 });
    discountId = created.body.id;
  });

  it('prices the order with the code, counts one redemption per order, and refuses the code once it is used up, selling nothing', async () => {
    // Two tickets, 500 off the order (a fixed amount is taken once per order): the discounted total.
    const discounted = 2 * PRICE - AMOUNT_OFF;
    const fullPrice = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 2, email: 'ann@example.com', amount: 2 * PRICE, reference: 'o-full', discount_code: code }));
    expect(fullPrice.status).toBe(400);
    expect(fullPrice.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'payment.amount' });
    expect(fullPrice.body.error.message).toContain(`must be ${discounted} `);

    const unknown = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 2, email: 'ann@example.com', amount: discounted, reference: 'o-unknown', discount_code: 'NO-SUCH-CODE' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing', param: 'discount_code' });

    expect(await tierCounts(api, eventId, tierId)).toEqual({ capacity: 10, held: 0, sold: 0 });
    expect(await timesRedeemed(api, discountId)).toBe(0);

    // Entered in lower case, two tickets: one order, one redemption.
    const first = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 2, email: 'ann@example.com', amount: discounted, reference: 'o-1', discount_code: code.toLowerCase() }));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'ticket_issuance', livemode: false });
    expect(first.body.tickets).toHaveLength(2);
    expect(sum(pricesOf(first.body))).toBe(discounted);
    for (const price of pricesOf(first.body)) expect(price).toBeLessThan(PRICE);
    expect(await timesRedeemed(api, discountId)).toBe(1);
    expect(await tierCounts(api, eventId, tierId)).toEqual({ capacity: 10, held: 0, sold: 2 });

    // Another buyer, one ticket: the second and last redemption.
    const second = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 1, email: 'bob@example.com', amount: PRICE - AMOUNT_OFF, reference: 'o-2', discount_code: code }));
    expect(second.status).toBe(200);
    expect(pricesOf(second.body)).toEqual([PRICE - AMOUNT_OFF]);
    expect(await timesRedeemed(api, discountId)).toBe(2);
    expect(await tierCounts(api, eventId, tierId)).toEqual({ capacity: 10, held: 0, sold: 3 });

    // Used up: refused whatever the amount, and nothing more is sold or counted.
    for (const amount of [PRICE - AMOUNT_OFF, PRICE]) {
      const usedUp = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 1, email: 'cleo@example.com', amount, reference: `o-3-${amount}`, discount_code: code }));
      expect(usedUp.status).toBe(409);
      expect(usedUp.body.error).toMatchObject({ type: 'invalid_request_error', code: 'discount_not_applicable', param: 'discount_code' });
    }
    expect(await tierCounts(api, eventId, tierId)).toEqual({ capacity: 10, held: 0, sold: 3 });
    expect(await timesRedeemed(api, discountId)).toBe(2);
    expect((await api.get(`/v1/tickets?event_id=${eventId}`)).body.data).toHaveLength(3);

    // Without the code the same buyer still buys, at full price, and the discount is not counted.
    const withoutCode = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 1, email: 'cleo@example.com', amount: PRICE, reference: 'o-4' }));
    expect(withoutCode.status).toBe(200);
    expect(pricesOf(withoutCode.body)).toEqual([PRICE]);
    expect(await timesRedeemed(api, discountId)).toBe(2);
  });
});

describe('an automatic discount limited per customer', () => {
  const PERCENT_OFF = 20;
  const discountedUnit = PRICE - (PRICE * PERCENT_OFF) / 100;
  let api: Client;
  let eventId: string;
  let tierId: string;
  let discountId: string;

  beforeAll(async () => {
    api = as((await createAccount()).secret_key);
    ({ eventId, tierId } = await onSale(api));
    const created = await api.post('/v1/discounts', { percent_off: PERCENT_OFF, applies_to: { event_ids: [eventId] }, max_redemptions_per_customer: 1 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ code: null, max_redemptions_per_customer: 1 });
    discountId = created.body.id;
    expect((await api.post(`/v1/discounts/${discountId}/triggers`, { kind: 'min_quantity', quantity: 1 })).status).toBe(200);
  });

  it('discounts the first purchase of each new email buyer, and only the first', async () => {
    // A new email: priced as the customer the issuance creates, who has redeemed nothing.
    const newBuyerFullPrice = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 1, email: 'dana@example.com', amount: PRICE, reference: 'd-0' }));
    expect(newBuyerFullPrice.status).toBe(400);
    expect(newBuyerFullPrice.body.error).toMatchObject({ code: 'parameter_invalid', param: 'payment.amount' });
    expect(newBuyerFullPrice.body.error.message).toContain(`must be ${discountedUnit} `);
    expect(await tierCounts(api, eventId, tierId)).toEqual({ capacity: 10, held: 0, sold: 0 });

    const first = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 1, email: 'dana@example.com', amount: discountedUnit, reference: 'd-1' }));
    expect(first.status).toBe(200);
    expect(pricesOf(first.body)).toEqual([discountedUnit]);
    expect(await timesRedeemed(api, discountId)).toBe(1);
    const dana = first.body.tickets[0].customer;
    expect((await api.get(`/v1/customers/${dana}`)).body).toMatchObject({ email: 'dana@example.com' });

    // The same email (in other case) again: the limit is used, so full price.
    const againDiscounted = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 1, email: 'DANA@example.com', amount: discountedUnit, reference: 'd-2' }));
    expect(againDiscounted.status).toBe(400);
    expect(againDiscounted.body.error).toMatchObject({ code: 'parameter_invalid', param: 'payment.amount' });
    expect(againDiscounted.body.error.message).toContain(`must be ${PRICE} `);
    const again = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 1, email: 'DANA@example.com', amount: PRICE, reference: 'd-3' }));
    expect(again.status).toBe(200);
    expect(pricesOf(again.body)).toEqual([PRICE]);
    expect(again.body.tickets[0].customer).toBe(dana);
    expect(await timesRedeemed(api, discountId)).toBe(1);

    // Another new email: discounted again, two tickets counting one redemption.
    const otherFullPrice = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 2, email: 'eli@example.com', amount: 2 * PRICE, reference: 'e-0' }));
    expect(otherFullPrice.status).toBe(400);
    expect(otherFullPrice.body.error.message).toContain(`must be ${2 * discountedUnit} `);
    const other = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 2, email: 'eli@example.com', amount: 2 * discountedUnit, reference: 'e-1' }));
    expect(other.status).toBe(200);
    expect(pricesOf(other.body)).toEqual([discountedUnit, discountedUnit]);
    expect(other.body.tickets[0].customer).not.toBe(dana);
    expect(await timesRedeemed(api, discountId)).toBe(2);

    expect(await tierCounts(api, eventId, tierId)).toEqual({ capacity: 10, held: 0, sold: 4 });
  });
});

describe('a discount code for another event', () => {
  it('is refused with 409 discount_not_applicable, selling nothing', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSale(api);
    const other = await onSale(api);
    const code = `ELSEWHERE-${Date.now()}`;
    const created = await api.post('/v1/discounts', { code, percent_off: 50, applies_to: { event_ids: [other.eventId] } });
    expect(created.status).toBe(200);

    for (const amount of [PRICE / 2, PRICE]) {
      const refused = await api.post(`/v1/events/${eventId}/tickets`, order(tierId, { quantity: 1, email: 'fay@example.com', amount, reference: `f-${amount}`, discount_code: code }));
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ type: 'invalid_request_error', code: 'discount_not_applicable', param: 'discount_code' });
    }
    expect(await tierCounts(api, eventId, tierId)).toEqual({ capacity: 10, held: 0, sold: 0 });
    expect((await api.get(`/v1/tickets?event_id=${eventId}`)).body.data).toEqual([]);
    expect(await timesRedeemed(api, created.body.id)).toBe(0);

    // The same code does price the event it was made for.
    const there = await api.post(`/v1/events/${other.eventId}/tickets`, order(other.tierId, { quantity: 1, email: 'fay@example.com', amount: PRICE / 2, reference: 'f-there', discount_code: code }));
    expect(there.status).toBe(200);
    expect(pricesOf(there.body)).toEqual([PRICE / 2]);
    expect(await timesRedeemed(api, created.body.id)).toBe(1);
  });
});
