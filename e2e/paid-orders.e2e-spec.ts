import { waitFor } from '@ticketing/testing';
import { as, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';

type Api = ReturnType<typeof as>;
const PRICE = 2500;

/** Paid orders under concurrency (decisions 0061, 0062): one charge per intent, never more tickets than units, no payment without its tickets. */
describe('paid orders under load', () => {
  let api: Api;

  beforeAll(async () => {
    api = as((await createAccount()).secret_key);
  });

  const onSale = async (capacity: number) => {
    const event = await api.post('/v1/events', { name: 'Paid rush', starts_at: '2099-10-01T20:00:00Z', currency: 'EUR' });
    const tier = await api.post(`/v1/events/${event.body.id}/tiers`, { name: 'GA', price: PRICE, capacity, max_per_order: 10 });
    await api.patch(`/v1/events/${event.body.id}`, { status: 'published' });
    return { eventId: event.body.id as string, tierId: tier.body.id as string };
  };
  const orderOf = (eventId: string, tierId: string, buyer: number, quantity = 1) => ({
    order: { event_id: eventId, items: [{ tier_id: tierId, quantity }], customer: { email: `buyer${buyer}@example.com` } },
    payment_method: 'pm_card_visa',
  });
  const ticketCount = async (tierId: string) => (await queryServiceDatabase<{ count: number }>('ticketing', 'SELECT count(*)::int AS count FROM tickets WHERE tier_id = $1', [tierId]))[0]!.count;
  const tier = async (tierId: string) => (await queryServiceDatabase<{ held: number; sold: number }>('catalog', 'SELECT held, sold FROM tiers WHERE id = $1', [tierId]))[0]!;

  it('charges once and issues one set of tickets when 50 confirmations of one order intent arrive together', async () => {
    const { eventId, tierId } = await onSale(10);
    const created = await api.post('/v1/payment_intents', orderOf(eventId, tierId, 1, 3));
    const answers = await Promise.all(Array.from({ length: 50 }, () => api.post(`/v1/payment_intents/${created.body.id}/confirm`)));
    expect(answers.filter((answer) => answer.status === 200).map((answer) => answer.body.status)).toEqual(['succeeded']);
    expect(new Set(answers.filter((answer) => answer.status !== 200).map((answer) => answer.body.error.code))).toEqual(new Set(['payment_intent_unexpected_state']));
    await waitFor('the tickets', async () => ((await ticketCount(tierId)) === 3 ? true : undefined));
    const charges = await queryServiceDatabase<{ count: number }>('payments', 'SELECT count(*)::int AS count FROM sandbox_charges WHERE charge_key IN (SELECT id FROM charges WHERE payment_intent_id = $1)', [created.body.id]);
    expect(charges).toEqual([{ count: 1 }]);
    expect(await tier(tierId)).toEqual({ held: 0, sold: 3 });
  });

  it('sells exactly the capacity to 1,000 buyers of 300 units: the rest are refused sold_out at creation, and every payment has its tickets', async () => {
    const { eventId, tierId } = await onSale(300);
    const created = await Promise.all(Array.from({ length: 1000 }, (_, buyer) => api.post('/v1/payment_intents', orderOf(eventId, tierId, buyer))));
    const held = created.filter((answer) => answer.status === 200);
    const refused = created.filter((answer) => answer.status !== 200);
    expect(held).toHaveLength(300);
    expect(new Set(refused.map((answer) => `${answer.status} ${answer.body.error.code}`))).toEqual(new Set(['409 sold_out']));
    expect(await tier(tierId)).toEqual({ held: 300, sold: 0 });

    const paid = await Promise.all(held.map((answer) => api.post(`/v1/payment_intents/${answer.body.id}/confirm`)));
    expect(new Set(paid.map((answer) => `${answer.status} ${answer.body.status}`))).toEqual(new Set(['200 succeeded']));
    expect(await tier(tierId)).toEqual({ held: 0, sold: 300 });
    await waitFor('every paid order’s ticket', async () => ((await ticketCount(tierId)) === 300 ? true : undefined), { timeoutMs: 60_000 });

    const intentIds = held.map((answer) => answer.body.id as string);
    const payments = await queryServiceDatabase<{ payment_intent_id: string }>('payments', 'SELECT payment_intent_id FROM payments WHERE payment_intent_id = ANY($1)', [intentIds]);
    const ticketed = await queryServiceDatabase<{ payment_reference: string }>(
      'ticketing',
      `SELECT DISTINCT i.payment_reference FROM issuances i JOIN tickets t ON t.issuance_id = i.id WHERE i.payment_type = 'payment_intent' AND i.payment_reference = ANY($1)`,
      [intentIds],
    );
    expect(payments).toHaveLength(300);
    expect(new Set(ticketed.map((row) => row.payment_reference))).toEqual(new Set(payments.map((row) => row.payment_intent_id)));
  }, 120_000);
});
