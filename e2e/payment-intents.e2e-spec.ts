import { waitFor } from '@ticketing/testing';
import { activateLive, as, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';
import { gatewayUrl } from './support/system';
import { subscribeToEveryEvent } from './support/webhook-trail';

type Api = ReturnType<typeof as>;

/** Payment intents through the gateway, charged by the payments service's sandbox (decision 0061). */
describe('payment intents through the gateway', () => {
  let api: Api;

  beforeAll(async () => {
    api = as((await createAccount()).secret_key);
    await subscribeToEveryEvent(api);
  });

  afterAll(async () => {
    const unbalanced = await queryServiceDatabase('payments', 'SELECT transaction_id FROM ledger_entries GROUP BY transaction_id, currency HAVING SUM(amount) <> 0');
    expect(unbalanced).toEqual([]);
  });

  const createIntent = async (body: Record<string, unknown> = {}) => {
    const created = await api.post('/v1/payment_intents', { amount: 9000, currency: 'EUR', ...body });
    expect(created.status).toBe(200);
    return created.body;
  };
  const confirm = (id: string, body: Record<string, unknown> = {}, headers?: Record<string, string>) => api.post(`/v1/payment_intents/${id}/confirm`, body, headers);
  const notificationTypes = (intentId: string) =>
    queryServiceDatabase<{ type: string }>('webhooks', `SELECT type FROM notifications WHERE data->>'payment_intent_id' = $1 ORDER BY id`, [intentId]);

  it('creates, confirms and reads an intent and its payment; the events reach webhooks', async () => {
    const created = await api.post('/v1/payment_intents', { amount: 9000, currency: 'eur', description: 'Order 8812', metadata: { order: '8812' } }, { 'Idempotency-Key': 'pi-create-1' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^pi_[0-9A-Z]{26}$/),
      object: 'payment_intent',
      livemode: false,
      amount: 9000,
      currency: 'EUR',
      description: 'Order 8812',
      metadata: { order: '8812' },
      status: 'requires_payment_method',
      payment_method: null,
      last_payment_error: null,
      next_action: null,
      payment: null,
      canceled_at: null,
      cancellation_reason: null,
      order: null,
      expires_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const replayedCreate = await api.post('/v1/payment_intents', { amount: 9000, currency: 'eur', description: 'Order 8812', metadata: { order: '8812' } }, { 'Idempotency-Key': 'pi-create-1' });
    expect(replayedCreate.headers.get('idempotent-replayed')).toBe('true');
    expect(replayedCreate.body).toEqual(created.body);

    const id: string = created.body.id;
    const confirmed = await confirm(id, { payment_method: 'pm_card_visa' }, { 'Idempotency-Key': 'pi-confirm-1' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ id, status: 'succeeded', payment_method: 'pm_card_visa', payment: expect.stringMatching(/^pay_/) });
    const replayedConfirm = await confirm(id, { payment_method: 'pm_card_visa' }, { 'Idempotency-Key': 'pi-confirm-1' });
    expect(replayedConfirm.headers.get('idempotent-replayed')).toBe('true');
    expect(replayedConfirm.body).toEqual(confirmed.body);
    expect((await api.get(`/v1/payment_intents/${id}`)).body).toEqual(confirmed.body);

    const payment = await api.get(`/v1/payments/${confirmed.body.payment}`);
    expect(payment.status).toBe(200);
    expect(payment.body).toEqual({
      id: confirmed.body.payment,
      object: 'payment',
      livemode: false,
      amount: 9000,
      currency: 'EUR',
      fee: 291,
      net: 8709,
      amount_refunded: 0,
      refunds: [],
      payment_intent: id,
      payment_method: 'pm_card_visa',
      created_at: expect.any(String),
    });
    await waitFor('the intent’s events in webhooks', async () => {
      const types = (await notificationTypes(id)).map((row) => row.type);
      return types.length === 2 ? types : undefined;
    }).then((types) => expect(types).toEqual(['payment_intent.created', 'payment_intent.succeeded']));
  });

  it.each([
    ['pm_card_chargeDeclined', 'card_declined'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
  ])('answers a charge of %s with requires_payment_method and last_payment_error %s', async (method, code) => {
    const intent = await createIntent({ payment_method: method });
    expect(intent.status).toBe('requires_confirmation');
    const failed = await confirm(intent.id);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'requires_payment_method', payment_method: null, payment: null, last_payment_error: { code, payment_method: method, message: expect.any(String) } });
    const missing = await confirm(intent.id);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'payment_method' });
    expect((await confirm(intent.id, { payment_method: 'pm_card_visa' })).body).toMatchObject({ status: 'succeeded', last_payment_error: null });
  });

  it('sends the buyer of pm_card_authenticationRequired to the sandbox’s page through the gateway, and succeeds once they authenticate', async () => {
    const intent = await createIntent();
    const asked = await confirm(intent.id, { payment_method: 'pm_card_authenticationRequired' });
    expect(asked.body).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url', redirect_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/sandbox\/authenticate\/ch_/) } });
    const again = await confirm(intent.id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('payment_intent_unexpected_state');

    const pageUrl: string = asked.body.next_action.redirect_url;
    expect(new URL(pageUrl).origin).toBe(new URL(gatewayUrl).origin);
    const page = await fetch(pageUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('€90.00');
    const answered = await fetch(pageUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=authenticated' });
    expect(answered.status).toBe(200);
    expect((await api.get(`/v1/payment_intents/${intent.id}`)).body).toMatchObject({ status: 'succeeded', next_action: null, payment: expect.stringMatching(/^pay_/) });
  });

  it('keeps pm_card_chargeDeclinedAfterDelay processing, then fails it', async () => {
    const intent = await createIntent({ payment_method: 'pm_card_chargeDeclinedAfterDelay' });
    expect((await confirm(intent.id)).body).toMatchObject({ status: 'processing' });
    const failed = await waitFor('the late decline', async () => {
      const read = await api.get(`/v1/payment_intents/${intent.id}`);
      return read.body.status === 'processing' ? undefined : read.body;
    });
    expect(failed).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'processing_error' } });
    await waitFor('the failure’s event in webhooks', async () => ((await notificationTypes(intent.id)).some((row) => row.type === 'payment_intent.payment_failed') ? true : undefined));
  });

  it('pays for an issuance, or an upgrade, with a succeeded plain intent of exactly its price, once', async () => {
    const event = await api.post('/v1/events', { name: 'Intent-paid night', starts_at: '2099-09-01T20:00:00Z', currency: 'EUR' });
    const tier = await api.post(`/v1/events/${event.body.id}/tiers`, { name: 'GA', price: 2500, capacity: 10 });
    await api.patch(`/v1/events/${event.body.id}`, { status: 'published' });
    const issue = (intentId: string) =>
      api.post(`/v1/events/${event.body.id}/tickets`, { tier_id: tier.body.id, quantity: 2, customer: { email: 'intent@example.com' }, payment: { type: 'payment_intent', payment_intent: intentId } });

    const intent = await createIntent({ amount: 5000, payment_method: 'pm_card_visa' });
    const unpaid = await issue(intent.id);
    expect({ status: unpaid.status, code: unpaid.body.error.code }).toEqual({ status: 409, code: 'payment_intent_unexpected_state' });
    expect((await confirm(intent.id)).body.status).toBe('succeeded');
    const issued = await issue(intent.id);
    expect(issued.status).toBe(200);
    expect(issued.body.tickets).toHaveLength(2);
    const again = await issue(intent.id);
    expect({ status: again.status, code: again.body.error.code, param: again.body.error.param }).toEqual({ status: 409, code: 'payment_intent_used', param: 'payment.payment_intent' });

    const short = await createIntent({ amount: 4999, payment_method: 'pm_card_visa' });
    await confirm(short.id);
    const wrong = await issue(short.id);
    expect({ status: wrong.status, code: wrong.body.error.code, param: wrong.body.error.param }).toEqual({ status: 400, code: 'parameter_invalid', param: 'payment.payment_intent' });
    const tiers = await api.get(`/v1/events/${event.body.id}/tiers`);
    expect(tiers.body.data[0]).toMatchObject({ held: 0, sold: 2 });

    // An upgrade's difference, paid the same way.
    const vip = await api.post(`/v1/events/${event.body.id}/tiers`, { name: 'VIP', price: 4000, capacity: 5, rank: 2 });
    const difference = await createIntent({ amount: 1500, payment_method: 'pm_card_visa' });
    await confirm(difference.id);
    const upgraded = await api.post(`/v1/tickets/${issued.body.tickets[0].id}/upgrade`, { tier_id: vip.body.id, payment: { type: 'payment_intent', payment_intent: difference.id } });
    expect(upgraded.body).toMatchObject({ tier_id: vip.body.id, price: 4000 });
    const reused = await api.post(`/v1/tickets/${issued.body.tickets[1].id}/upgrade`, { tier_id: vip.body.id, payment: { type: 'payment_intent', payment_intent: difference.id } });
    expect({ status: reused.status, code: reused.body.error.code }).toEqual({ status: 409, code: 'payment_intent_used' });
  });

  it('charges once when 50 confirmations of one intent arrive together', async () => {
    const intent = await createIntent({ payment_method: 'pm_card_visa' });
    const answers = await Promise.all(Array.from({ length: 50 }, () => confirm(intent.id)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(new Set(answers.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${answer.body.error.code}`))).toEqual(new Set(['409 payment_intent_unexpected_state']));
    const charged = await queryServiceDatabase<{ count: number }>(
      'payments',
      'SELECT count(*)::int AS count FROM sandbox_charges WHERE charge_key IN (SELECT id FROM charges WHERE payment_intent_id = $1)',
      [intent.id],
    );
    expect(charged).toEqual([{ count: 1 }]);
  });

  it('refuses bad input with the parameter at fault, and creates nothing', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ amount: 0, currency: 'EUR' }, 'parameter_invalid', 'amount'],
      [{ amount: -5, currency: 'EUR' }, 'parameter_invalid', 'amount'],
      [{ amount: 10.5, currency: 'EUR' }, 'parameter_invalid', 'amount'],
      [{ amount: '9000', currency: 'EUR' }, 'parameter_invalid', 'amount'],
      [{ amount: 100_000_000, currency: 'EUR' }, 'parameter_invalid', 'amount'],
      [{ currency: 'EUR' }, 'parameter_missing', 'amount'],
      [{ amount: 9000, currency: 'EURO' }, 'parameter_invalid', 'currency'],
      [{ amount: 9000 }, 'parameter_missing', 'currency'],
      [{ amount: 9000, currency: 'EUR', payment_method: 'pm_card_amex_unknown' }, 'parameter_invalid', 'payment_method'],
      [{ amount: 9000, currency: 'EUR', capture_method: 'manual' }, 'parameter_unknown', 'capture_method'],
    ];
    const { account_id, secret_key } = await createAccount();
    const fresh = as(secret_key);
    for (const [body, code, param] of cases) {
      const refused = await fresh.post('/v1/payment_intents', body);
      expect({ body, status: refused.status, code: refused.body.error.code, param: refused.body.error.param }).toEqual({ body, status: 400, code, param });
    }
    expect(await queryServiceDatabase('payments', 'SELECT id FROM payment_intents WHERE account_id = $1', [account_id])).toEqual([]);
    const unknown = await fresh.post('/v1/payment_intents/pi_01JD3WJ6K8M0P2R4T6V8X0Z2B4/confirm', { payment_method: 'pm_card_visa' });
    expect({ status: unknown.status, code: unknown.body.error.code }).toEqual({ status: 404, code: 'resource_missing' });
  });

  it('refuses live confirmations while no live processor is configured, and shows test intents only to test keys', async () => {
    const account = await createAccount();
    const live = as((await activateLive(account.account_id)).secret_key);
    const created = await live.post('/v1/payment_intents', { amount: 500, currency: 'EUR' });
    expect(created.body).toMatchObject({ livemode: true, status: 'requires_payment_method' });
    const refused = await live.post(`/v1/payment_intents/${created.body.id}/confirm`, { payment_method: 'pm_card_visa' });
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 409, code: 'live_payments_unavailable' });
    expect((await live.get(`/v1/payment_intents/${created.body.id}`)).body.status).toBe('requires_payment_method');
    expect((await as(account.secret_key).get(`/v1/payment_intents/${created.body.id}`)).status).toBe(404);
  });
});
