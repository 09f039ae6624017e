import type { InternalClaims } from '@ticketing/auth';
import { callUnary, type CallerOptions } from '@ticketing/grpc';
import { waitFor } from '@ticketing/testing';
import { caller, intentCalls, intentEventTypes, startPaymentsHarness, tenantClaims, unbalancedLedgerTransactions, type PaymentsHarness } from './support/payments-harness';

/** Payment intents through the payments service's real gRPC server, charged by the sandbox, on real PostgreSQL. */
describe('payment intents (real PostgreSQL, real gRPC, sandbox processor)', () => {
  let harness: PaymentsHarness;
  let calls: ReturnType<typeof intentCalls>;

  beforeAll(async () => {
    harness = await startPaymentsHarness();
    calls = intentCalls(harness);
  });

  afterEach(async () => {
    expect(await unbalancedLedgerTransactions(harness.prisma)).toEqual([]);
  });

  afterAll(() => harness.stop());

  const chargesOf = (intentId: string) => harness.prisma.charge.findMany({ where: { payment_intent_id: intentId }, orderBy: { created_at: 'asc' } });
  const sandboxChargesOf = async (intentId: string) => harness.prisma.sandboxCharge.count({ where: { charge_key: { in: (await chargesOf(intentId)).map((charge) => charge.id) } } });
  const withKey = (key: string, fingerprint: string, onReplayed: () => void = () => undefined): CallerOptions => ({ ...caller, idempotency: { key, fingerprint, onReplayed } });

  it('creates an intent that awaits a payment method, or only its confirmation when given one', async () => {
    const claims = tenantClaims();
    const bare = await calls.create(claims, { amount: 4500, currency: 'eur', description: ' Order 1 ', metadata: { order: '1' } });
    expect(bare).toMatchObject({ livemode: false, amount: 4500, currency: 'EUR', description: 'Order 1', metadata: { order: '1' }, status: 'requires_payment_method', payment_method: '', payment_id: '' });
    expect(bare.id).toMatch(/^pi_/);
    const ready = await calls.create(claims, { payment_method: 'pm_card_visa' });
    expect(ready).toMatchObject({ status: 'requires_confirmation', payment_method: 'pm_card_visa' });
    expect(await intentEventTypes(harness.prisma, bare.id)).toEqual(['payment_intent.created']);
    expect(await calls.get(claims, bare.id)).toEqual(bare);
  });

  it('refuses bad amounts, currencies and payment methods with the parameter at fault, and creates nothing', async () => {
    const claims = tenantClaims();
    for (const [fields, param] of [
      [{ amount: 0 }, 'amount'],
      [{ amount: -100 }, 'amount'],
      [{ amount: 100_000_000 }, 'amount'],
      [{ currency: 'EURO' }, 'currency'],
      [{ currency: 'XXX' }, 'currency'],
      [{ payment_method: 'pm_card_unknown' }, 'payment_method'],
    ] as const) {
      await expect(calls.create(claims, fields)).rejects.toMatchObject({ code: 'parameter_invalid', status: 400, param });
    }
    expect(await harness.prisma.paymentIntent.count({ where: { account_id: claims.tenant!.account_id } })).toBe(0);
  });

  it('charges pm_card_visa: the intent succeeds with a payment net of its fee, in a balanced ledger', async () => {
    const claims = tenantClaims();
    const intent = await calls.create(claims, { amount: 10_000 });
    const succeeded = await calls.confirm(claims, intent.id, 'pm_card_visa');
    expect(succeeded).toMatchObject({ status: 'succeeded', payment_method: 'pm_card_visa' });
    expect(succeeded.last_payment_error).toBeUndefined();
    const payment = await calls.getPayment(claims, succeeded.payment_id);
    // 2.9 % of 10,000 is 290, plus 30.
    expect(payment).toMatchObject({ amount: 10_000, currency: 'EUR', fee: 320, net: 9680, amount_refunded: 0, payment_intent_id: intent.id, payment_method: 'pm_card_visa' });
    expect(await intentEventTypes(harness.prisma, intent.id)).toEqual(['payment_intent.created', 'payment_intent.succeeded']);

    const entries = await harness.prisma.ledgerEntry.findMany({ where: { account_id: claims.tenant!.account_id }, include: { transaction: true } });
    const byAccount = (ledgerAccount: string) => entries.filter((entry) => entry.ledger_account === ledgerAccount).reduce((sum, entry) => sum + Number(entry.amount), 0);
    expect(byAccount('processor_clearing')).toBe(10_000);
    expect(byAccount('merchant_balance')).toBe(-9680);
    expect(byAccount('platform_fees')).toBe(-320);
    expect(new Set(entries.map((entry) => entry.transaction.kind))).toEqual(new Set(['charge', 'fee']));
  });

  it.each([
    ['pm_card_chargeDeclined', 'card_declined'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
  ])('returns a charge of %s to requires_payment_method with last_payment_error %s, and a later card succeeds', async (method, code) => {
    const claims = tenantClaims();
    const intent = await calls.create(claims, { payment_method: method });
    const failed = await calls.confirm(claims, intent.id);
    expect(failed).toMatchObject({ status: 'requires_payment_method', payment_method: '', payment_id: '', last_payment_error: { code, payment_method: method } });
    expect(failed.last_payment_error!.message).not.toBe('');
    await expect(calls.confirm(claims, intent.id)).rejects.toMatchObject({ code: 'parameter_missing', param: 'payment_method' });

    const retried = await calls.confirm(claims, intent.id, 'pm_card_visa');
    expect(retried).toMatchObject({ status: 'succeeded', payment_method: 'pm_card_visa' });
    expect(retried.last_payment_error).toBeUndefined();
    expect((await chargesOf(intent.id)).map((charge) => charge.status)).toEqual(['failed', 'succeeded']);
    expect(await intentEventTypes(harness.prisma, intent.id)).toEqual(['payment_intent.created', 'payment_intent.payment_failed', 'payment_intent.succeeded']);
  });

  it('sends the buyer of pm_card_authenticationRequired to authenticate, and succeeds once they have', async () => {
    const claims = tenantClaims();
    const intent = await calls.create(claims, { payment_method: 'pm_card_authenticationRequired' });
    const asked = await calls.confirm(claims, intent.id);
    const [charge] = await chargesOf(intent.id);
    expect(asked).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url', redirect_url: `http://127.0.0.1:8080/sandbox/authenticate/${charge!.id}` } });
    await expect(calls.confirm(claims, intent.id)).rejects.toMatchObject({ code: 'payment_intent_unexpected_state', status: 409 });

    const done = await harness.core.completeAuthentication.execute(charge!.id, true);
    expect(done).toMatchObject({ status: 'succeeded', next_action: null });
    expect(await calls.get(claims, intent.id)).toMatchObject({ status: 'succeeded' });
    // Answering the page again changes nothing.
    expect(await harness.core.completeAuthentication.execute(charge!.id, false)).toMatchObject({ status: 'succeeded' });
    expect(await intentEventTypes(harness.prisma, intent.id)).toEqual(['payment_intent.created', 'payment_intent.requires_action', 'payment_intent.succeeded']);
  });

  it('cancels an intent awaiting the buyer’s authentication: its charge is abandoned, and the page can no longer complete it', async () => {
    const claims = tenantClaims();
    const intent = await calls.create(claims, { payment_method: 'pm_card_authenticationRequired' });
    await calls.confirm(claims, intent.id);
    const [charge] = await chargesOf(intent.id);
    const canceled = await callUnary(harness.intents.cancelPaymentIntent.bind(harness.intents), { id: intent.id }, claims, caller);
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_customer' });
    expect(canceled.next_action).toBeUndefined();
    expect(await harness.core.completeAuthentication.execute(charge!.id, true)).toMatchObject({ status: 'canceled' });
    expect((await chargesOf(intent.id)).map((row) => row.status)).toEqual(['failed']);
    expect(await harness.prisma.payment.count({ where: { payment_intent_id: intent.id } })).toBe(0);
    expect(await intentEventTypes(harness.prisma, intent.id)).toEqual(['payment_intent.created', 'payment_intent.requires_action', 'payment_intent.canceled']);
    await expect(callUnary(harness.intents.cancelPaymentIntent.bind(harness.intents), { id: intent.id }, claims, caller)).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
  });

  it('fails a charge whose buyer does not authenticate, with authentication_failed', async () => {
    const claims = tenantClaims();
    const intent = await calls.create(claims, { payment_method: 'pm_card_authenticationRequired' });
    await calls.confirm(claims, intent.id);
    const [charge] = await chargesOf(intent.id);
    expect(await harness.core.completeAuthentication.execute(charge!.id, false)).toMatchObject({
      status: 'requires_payment_method',
      next_action: null,
      last_payment_error: { code: 'authentication_failed', payment_method: 'pm_card_authenticationRequired' },
    });
  });

  it('keeps pm_card_chargeDeclinedAfterDelay processing, then fails it once the sandbox decides', async () => {
    const claims = tenantClaims();
    const intent = await calls.create(claims, { payment_method: 'pm_card_chargeDeclinedAfterDelay' });
    expect(await calls.confirm(claims, intent.id)).toMatchObject({ status: 'processing' });
    await expect(calls.confirm(claims, intent.id, 'pm_card_visa')).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
    const failed = await waitFor('the delayed decline', async () => {
      await harness.core.redriveCharges.execute(0);
      const now = await calls.get(claims, intent.id);
      return now.status === 'processing' ? undefined : now;
    });
    expect(failed).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'processing_error', payment_method: 'pm_card_chargeDeclinedAfterDelay' } });
    expect(await intentEventTypes(harness.prisma, intent.id)).toEqual(['payment_intent.created', 'payment_intent.payment_failed']);
  });

  it('refuses to confirm an intent that succeeded, without charging it again', async () => {
    const claims = tenantClaims();
    const intent = await calls.create(claims, { payment_method: 'pm_card_visa' });
    await calls.confirm(claims, intent.id);
    await expect(calls.confirm(claims, intent.id, 'pm_card_visa')).rejects.toMatchObject({
      code: 'payment_intent_unexpected_state',
      status: 409,
      message: expect.stringContaining('already succeeded'),
    });
    expect(await sandboxChargesOf(intent.id)).toBe(1);
  });

  it('charges once when 50 confirmations of one intent arrive together', async () => {
    const claims = tenantClaims();
    const intent = await calls.create(claims, { payment_method: 'pm_card_visa' });
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => calls.confirm(claims, intent.id)));
    const answered = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(answered).toHaveLength(1);
    expect(new Set(refused.map((outcome) => (outcome.reason as { code: string }).code))).toEqual(new Set(['payment_intent_unexpected_state']));
    expect(await sandboxChargesOf(intent.id)).toBe(1);
    expect(await harness.prisma.payment.count({ where: { payment_intent_id: intent.id } })).toBe(1);
    expect(await intentEventTypes(harness.prisma, intent.id)).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
  });

  it('answers a retried confirmation under the same Idempotency-Key with the intent as it is, and refuses the key for another request', async () => {
    const claims = tenantClaims();
    const intent = await calls.create(claims, { payment_method: 'pm_card_visa' });
    const first = await calls.confirm(claims, intent.id, '', withKey('confirm-1', 'f1'));
    let replayed = false;
    const again = await calls.confirm(claims, intent.id, '', withKey('confirm-1', 'f1', () => (replayed = true)));
    expect(again).toEqual(first);
    expect(replayed).toBe(true);
    await expect(calls.confirm(claims, intent.id, 'pm_card_mastercard', withKey('confirm-1', 'f2'))).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    expect(await sandboxChargesOf(intent.id)).toBe(1);
  });

  it('refuses live confirmations when no live processor is configured, and changes nothing', async () => {
    const claims = tenantClaims('live');
    const intent = await calls.create(claims);
    expect(intent.livemode).toBe(true);
    await expect(calls.confirm(claims, intent.id, 'pm_card_visa')).rejects.toMatchObject({ code: 'live_payments_unavailable', status: 409 });
    await expect(calls.create(claims, { payment_method: 'pm_card_visa' })).rejects.toMatchObject({ code: 'live_payments_unavailable' });
    expect(await calls.get(claims, intent.id)).toMatchObject({ status: 'requires_payment_method' });
    expect(await chargesOf(intent.id)).toEqual([]);
  });

  it('shows an intent and its payment only to their own account and mode', async () => {
    const claims = tenantClaims();
    const succeeded = await calls.confirm(claims, (await calls.create(claims)).id, 'pm_card_visa');
    const strangers: InternalClaims[] = [tenantClaims(), tenantClaims('live', claims.tenant!.account_id)];
    for (const stranger of strangers) {
      await expect(calls.get(stranger, succeeded.id)).rejects.toMatchObject({ code: 'resource_missing', status: 404 });
      await expect(calls.confirm(stranger, succeeded.id, 'pm_card_visa')).rejects.toMatchObject({ code: 'resource_missing' });
      await expect(calls.getPayment(stranger, succeeded.payment_id)).rejects.toMatchObject({ code: 'resource_missing' });
    }
  });
});
