import { createLogger } from '@ticketing/observability';
import { paymentCore } from '../src/payment-core';
import { Processors } from '../src/processors/payment-processor';
import type { SandboxProcessor } from '../src/sandbox/sandbox-processor';
import { intentCalls, intentEventTypes, noCatalog, startPaymentsHarness, TEST_SETTINGS, tenantClaims, unbalancedLedgerTransactions, type PaymentsHarness } from './support/payments-harness';

/**
 * A confirmation cut off after the processor charged, before payments recorded it (the process
 * died, the processor's reply was lost): the re-driver asks the processor again under the same
 * charge id and settles what it answers, once.
 */
describe('charges cut off midway (real PostgreSQL, sandbox processor)', () => {
  let harness: PaymentsHarness;
  let calls: ReturnType<typeof intentCalls>;
  /** Holds 'next' while the next charge's reply is to be lost. */
  const cutOff = new Set<string>();

  beforeAll(async () => {
    // The sandbox, whose reply to a charge named in `cutOff` is lost after it charged.
    const losingReplies = (sandbox: SandboxProcessor) =>
      new Processors(
        {
          assertChargeable: (method) => sandbox.assertChargeable(method),
          reverse: (chargeId, failure) => sandbox.reverse(chargeId, failure),
          abandon: (chargeId) => sandbox.abandon(chargeId),
          refund: (request) => sandbox.refund(request),
          charge: async (request) => {
            const outcome = await sandbox.charge(request);
            if (cutOff.delete('next')) throw new Error('connection reset after the charge was made');
            return outcome;
          },
        },
        null,
      );
    harness = await startPaymentsHarness((prisma) => paymentCore(prisma, noCatalog(), TEST_SETTINGS, createLogger('payments-test', 'silent'), losingReplies));
    calls = intentCalls(harness);
  });

  afterAll(() => harness.stop());

  it('finishes the charge once: one charge at the processor, one payment, one succeeded event', async () => {
    const claims = tenantClaims();
    const intent = await calls.create(claims, { payment_method: 'pm_card_visa' });
    cutOff.add('next');
    await expect(calls.confirm(claims, intent.id)).rejects.toMatchObject({ status: 500 });
    expect(await calls.get(claims, intent.id)).toMatchObject({ status: 'processing' });
    await expect(calls.confirm(claims, intent.id, 'pm_card_visa')).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });

    expect(await harness.core.redriveCharges.execute(0)).toBeGreaterThanOrEqual(1);
    const finished = await calls.get(claims, intent.id);
    expect(finished).toMatchObject({ status: 'succeeded' });
    expect(await harness.core.redriveCharges.execute(0)).toBe(0);

    const [charge] = await harness.prisma.charge.findMany({ where: { payment_intent_id: intent.id } });
    expect(await harness.prisma.sandboxCharge.count({ where: { charge_key: charge!.id } })).toBe(1);
    expect(await harness.prisma.payment.count({ where: { payment_intent_id: intent.id } })).toBe(1);
    expect(await intentEventTypes(harness.prisma, intent.id)).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
    expect(await unbalancedLedgerTransactions(harness.prisma)).toEqual([]);
  });
});
