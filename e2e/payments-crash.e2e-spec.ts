import { waitFor } from '@ticketing/testing';
import { as, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';
import { kill, restart } from './support/processes';
import { readPids } from './support/system';

/**
 * The payments service dies between the processor's charge and its own record of it (decision
 * 0061): the sandbox has charged and is still answering (SANDBOX_LATENCY_MS) when the process is
 * killed. After a restart the re-driver asks the sandbox again under the same charge id, sells
 * the order's units and settles: one charge, one payment, payment_intent.succeeded once, the
 * tickets issued once.
 */
describe('payments killed between the charge and its publication', () => {
  afterAll(() => restart('payments'));

  it('finishes the paid order once after a restart', async () => {
    await restart('payments', { SANDBOX_LATENCY_MS: '5000' });
    const api = as((await createAccount()).secret_key);
    const event = await api.post('/v1/events', { name: 'Crash pay', starts_at: '2099-11-01T20:00:00Z', currency: 'EUR' });
    const tier = await api.post(`/v1/events/${event.body.id}/tiers`, { name: 'GA', price: 3000, capacity: 5 });
    await api.patch(`/v1/events/${event.body.id}`, { status: 'published' });
    const created = await api.post('/v1/payment_intents', {
      order: { event_id: event.body.id, items: [{ tier_id: tier.body.id, quantity: 2 }], customer: { email: 'crash@example.com' } },
      payment_method: 'pm_card_visa',
    });
    const intentId: string = created.body.id;

    const confirming = api.post(`/v1/payment_intents/${intentId}/confirm`);
    await waitFor('the sandbox’s charge', async () => {
      const [row] = await queryServiceDatabase<{ count: number }>('payments', 'SELECT count(*)::int AS count FROM sandbox_charges WHERE charge_key IN (SELECT id FROM charges WHERE payment_intent_id = $1)', [intentId]);
      return row!.count === 1 ? true : undefined;
    });
    await kill(readPids().payments!);
    expect((await confirming).status).toBeGreaterThanOrEqual(500);
    expect((await queryServiceDatabase<{ status: string }>('payments', 'SELECT status FROM payment_intents WHERE id = $1', [intentId]))[0]!.status).toBe('processing');

    await restart('payments');
    const succeeded = await waitFor('the re-driven charge', async () => {
      const read = await api.get(`/v1/payment_intents/${intentId}`);
      return read.body.status === 'succeeded' ? read.body : undefined;
    });
    const [line] = succeeded.order.lines;
    await waitFor('the tickets', async () => {
      const [row] = await queryServiceDatabase<{ count: number }>('ticketing', 'SELECT count(*)::int AS count FROM tickets WHERE issuance_id = $1', [line.issuance]);
      return row!.count === 2 ? true : undefined;
    });

    const counts = async () => ({
      charged: (await queryServiceDatabase<{ count: number }>('payments', 'SELECT count(*)::int AS count FROM sandbox_charges WHERE charge_key IN (SELECT id FROM charges WHERE payment_intent_id = $1)', [intentId]))[0]!.count,
      payments: (await queryServiceDatabase<{ count: number }>('payments', 'SELECT count(*)::int AS count FROM payments WHERE payment_intent_id = $1', [intentId]))[0]!.count,
      succeededEvents: (await queryServiceDatabase<{ count: number }>('payments', `SELECT count(*)::int AS count FROM outbox_messages WHERE message_key = $1 AND payload->>'type' = 'payment_intent.succeeded'`, [intentId]))[0]!.count,
      issuances: (await queryServiceDatabase<{ count: number }>('ticketing', 'SELECT count(*)::int AS count FROM issuances WHERE payment_reference = $1', [intentId]))[0]!.count,
      tickets: (await queryServiceDatabase<{ count: number }>('ticketing', 'SELECT count(*)::int AS count FROM tickets WHERE issuance_id = $1', [line.issuance]))[0]!.count,
      tier: (await queryServiceDatabase<{ held: number; sold: number }>('catalog', 'SELECT held, sold FROM tiers WHERE id = $1', [tier.body.id]))[0],
    });
    expect(await counts()).toEqual({ charged: 1, payments: 1, succeededEvents: 1, issuances: 1, tickets: 2, tier: { held: 0, sold: 2 } });
    const published = await queryServiceDatabase<{ published: boolean }>('payments', `SELECT published_at IS NOT NULL AS published FROM outbox_messages WHERE message_key = $1 AND payload->>'type' = 'payment_intent.succeeded'`, [intentId]);
    expect(published).toEqual([{ published: true }]);
  });
});
