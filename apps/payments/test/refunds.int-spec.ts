import type { InternalClaims } from '@ticketing/auth';
import { callUnary, type CallerOptions } from '@ticketing/grpc';
import { caller, intentCalls, startPaymentsHarness, tenantClaims, unbalancedLedgerTransactions, type PaymentsHarness } from './support/payments-harness';

/** Refunds (decision 0064) through payments' real gRPC server on real PostgreSQL, given back by the sandbox. */
describe('refunds (real PostgreSQL, real gRPC, sandbox)', () => {
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

  const refund = (claims: InternalClaims, paymentId: string, amount = 0, options: CallerOptions = caller) =>
    callUnary(harness.payments.refundPayment.bind(harness.payments), { payment_id: paymentId, amount, reason: '' }, claims, options);
  const paid = async (claims: InternalClaims, amount: number) => {
    const intent = await calls.confirm(claims, (await calls.create(claims, { amount })).id, 'pm_card_visa');
    return { intentId: intent.id, paymentId: intent.payment_id };
  };
  const sandboxRefunded = async (paymentId: string) => {
    const payment = await harness.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } });
    return Number((await harness.prisma.sandboxCharge.findUniqueOrThrow({ where: { charge_key: payment.charge_id } })).refunded);
  };

  it('refunds part, then the rest, never more than was paid, with a balanced ledger and payment.refunded', async () => {
    const claims = tenantClaims();
    const { paymentId } = await paid(claims, 10_000);
    const first = await refund(claims, paymentId, 4000);
    expect(first).toMatchObject({ payment_id: paymentId, amount: 4000, currency: 'EUR', status: 'succeeded' });
    expect(first.id).toMatch(/^re_/);
    await expect(refund(claims, paymentId, 6001)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'amount', message: expect.stringContaining('at most 6000') });
    const rest = await refund(claims, paymentId);
    expect(rest.amount).toBe(6000);
    await expect(refund(claims, paymentId)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'payment' });

    const payment = await calls.getPayment(claims, paymentId);
    expect(payment).toMatchObject({ amount_refunded: 10_000, refunds: [{ id: rest.id, amount: 6000 }, { id: first.id, amount: 4000 }] });
    expect(await sandboxRefunded(paymentId)).toBe(10_000);
    const events = await harness.prisma.outboxMessage.findMany({ where: { message_key: paymentId }, orderBy: { position: 'asc' } });
    expect(events.map((row) => (row.payload as { type: string; data: { amount_refunded: number } }).data.amount_refunded)).toEqual([4000, 10_000]);
    const balance = await callUnary(harness.balance.getBalance.bind(harness.balance), {}, claims, caller);
    // The fee (320) is not given back.
    expect(balance.available).toEqual([{ amount: -320, currency: 'EUR' }]);
  });

  it('never gives back more than was paid, however many refunds are asked for at once', async () => {
    const claims = tenantClaims();
    const { paymentId } = await paid(claims, 10_000);
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => refund(claims, paymentId, 3000)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    expect((await calls.getPayment(claims, paymentId)).amount_refunded).toBe(9000);
    expect(await sandboxRefunded(paymentId)).toBe(9000);
  });

  it('answers a retried refund under the same Idempotency-Key with the same refund, and gives back once', async () => {
    const claims = tenantClaims();
    const { paymentId } = await paid(claims, 10_000);
    const keyed: CallerOptions = { ...caller, idempotency: { key: 'refund-1', fingerprint: 'f', onReplayed: () => undefined } };
    const first = await refund(claims, paymentId, 2500, keyed);
    expect(await refund(claims, paymentId, 2500, keyed)).toEqual(first);
    // Another tenant's same key is its own.
    const other = tenantClaims();
    const otherPayment = await paid(other, 5000);
    expect((await refund(other, otherPayment.paymentId, 1000, keyed)).payment_id).toBe(otherPayment.paymentId);
    expect((await calls.getPayment(claims, paymentId)).amount_refunded).toBe(2500);
  });

  it('gives a ticket’s refund back from its intent’s payment once per change, and only what is left', async () => {
    const claims = tenantClaims();
    const tenant = { accountId: claims.tenant!.account_id, mode: claims.tenant!.mode };
    const { intentId, paymentId } = await paid(claims, 5000);
    const ticketRefund = (changeId: string, amount: number) =>
      harness.core.refunds.execute(tenant, { of: { payment_intent_id: intentId }, amount, beyondWhatIsLeft: 'give_what_is_left', reason: 'Cannot come', source_id: changeId });
    expect(await ticketRefund('tch_1', 3000)).toMatchObject({ amount: 3000 });
    expect(await ticketRefund('tch_1', 3000)).toMatchObject({ amount: 3000 });
    expect(await ticketRefund('tch_2', 3000)).toMatchObject({ amount: 2000 });
    expect(await ticketRefund('tch_3', 3000)).toBeNull();
    expect((await calls.getPayment(claims, paymentId)).amount_refunded).toBe(5000);
  });

  it('refuses a payment of another account or mode', async () => {
    const claims = tenantClaims();
    const { paymentId } = await paid(claims, 1000);
    await expect(refund(tenantClaims(), paymentId)).rejects.toMatchObject({ code: 'resource_missing', param: 'payment' });
  });
});
