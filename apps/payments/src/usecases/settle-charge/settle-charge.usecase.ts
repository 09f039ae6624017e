import type { Tenant } from '@ticketing/auth';
import { newId } from '@ticketing/ids';
import type { PaymentsDb, PrismaClient } from '../../db';
import { processingFee, type FeeSchedule } from '../../domain/fees';
import { paymentTransactions } from '../../domain/ledger';
import { canceledNow, type CancellationReason, type PaymentIntent } from '../../domain/payment-intent';
import type { ChargeOutcome } from '../../processors/payment-processor';
import { ChargeRepository, type Charge } from '../../repositories/charge.repository';
import { LedgerRepository } from '../../repositories/ledger.repository';
import { PaymentIntentRepository } from '../../repositories/payment-intent.repository';
import { enqueuePaymentIntentEvent } from '../../repositories/payment-intent-events';
import { PaymentRepository } from '../../repositories/payment.repository';

export interface SettlementSettings {
  fees: FeeSchedule;
  /** How long after a payment its money counts in the available balance. */
  settlementDelayMs: number;
}

/**
 * Applies what the processor says of a charge to the charge and its intent, in one transaction
 * with the event that tells it: a success makes the payment and its ledger transactions; a
 * failure returns the intent to requires_payment_method with last_payment_error; a request for
 * authentication sends the buyer to the processor's page. Each outcome is applied once, whoever
 * learns it first (the confirmation, the re-driver, the buyer's authentication); an outcome not
 * decided yet changes nothing. Answers the intent as it then is.
 */
export class SettleChargeUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly settings: SettlementSettings,
  ) {}

  /**
   * `cancelAs`, for a failure that ends the intent (its order can no longer be sold): the intent
   * is canceled with that reason instead of awaiting another payment method.
   */
  async execute(charge: Charge, outcome: ChargeOutcome, cancelAs?: CancellationReason): Promise<PaymentIntent> {
    const tenant: Tenant = { accountId: charge.account_id, mode: charge.mode };
    return this.prisma.$transaction(async (tx) => {
      // Locked first, as a confirmation locks it, so the two take turns.
      const intent = (await new PaymentIntentRepository(tx).lockById(tenant, charge.payment_intent_id))!;
      const charges = new ChargeRepository(tx);
      switch (outcome.status) {
        case 'processing':
          return intent;
        case 'succeeded':
          return (await charges.settle(charge.id, ['processing', 'requires_action'], 'succeeded')) ? this.succeed(tx, tenant, intent, charge) : intent;
        case 'failed':
          if (!(await charges.settle(charge.id, ['processing', 'requires_action'], 'failed', outcome))) return intent;
          return cancelAs ? this.cancel(tx, tenant, intent, charge, outcome, cancelAs) : this.fail(tx, tenant, charge, outcome);
        case 'requires_action':
          return (await charges.settle(charge.id, ['processing'], 'requires_action')) ? this.askForAction(tx, tenant, charge, outcome.redirectUrl) : intent;
      }
    });
  }

  private async succeed(tx: PaymentsDb, tenant: Tenant, { order }: PaymentIntent, charge: Charge): Promise<PaymentIntent> {
    const payment = await new PaymentRepository(tx).create(tenant, {
      id: newId('pay'),
      payment_intent_id: charge.payment_intent_id,
      charge_id: charge.id,
      amount: charge.amount,
      currency: charge.currency,
      fee: processingFee(charge.amount, this.settings.fees),
      payment_method: charge.payment_method,
    });
    await new LedgerRepository(tx).record(tenant, paymentTransactions(payment, new Date(payment.created_at.getTime() + this.settings.settlementDelayMs)));
    const intent = await new PaymentIntentRepository(tx).change(tenant, charge.payment_intent_id, {
      status: 'succeeded',
      payment_id: payment.id,
      next_action: null,
      last_payment_error: null,
      ...(order && { inventory: 'committed' as const }),
    });
    await enqueuePaymentIntentEvent(tx, tenant, 'payment_intent.succeeded', intent);
    return intent;
  }

  /** As Stripe does, the failed method is let go: the buyer gives another (or the same again) to retry. */
  private async fail(tx: PaymentsDb, tenant: Tenant, charge: Charge, failure: { code: string; message: string }): Promise<PaymentIntent> {
    const intent = await new PaymentIntentRepository(tx).change(tenant, charge.payment_intent_id, {
      status: 'requires_payment_method',
      payment_method: null,
      next_action: null,
      last_payment_error: { code: failure.code, message: failure.message, payment_method: charge.payment_method },
    });
    await enqueuePaymentIntentEvent(tx, tenant, 'payment_intent.payment_failed', intent);
    return intent;
  }

  /** A failure that ends the intent: canceled, its order's units given back (by the caller, in catalog). */
  private async cancel(tx: PaymentsDb, tenant: Tenant, intent: PaymentIntent, charge: Charge, failure: { code: string; message: string }, reason: CancellationReason): Promise<PaymentIntent> {
    const canceled = await new PaymentIntentRepository(tx).change(tenant, charge.payment_intent_id, {
      ...canceledNow(intent, reason),
      next_action: null,
      last_payment_error: { code: failure.code, message: failure.message, payment_method: charge.payment_method },
    });
    await enqueuePaymentIntentEvent(tx, tenant, 'payment_intent.canceled', canceled);
    return canceled;
  }

  private async askForAction(tx: PaymentsDb, tenant: Tenant, charge: Charge, redirectUrl: string): Promise<PaymentIntent> {
    const intent = await new PaymentIntentRepository(tx).change(tenant, charge.payment_intent_id, { status: 'requires_action', next_action: { type: 'redirect_to_url', redirect_url: redirectUrl } });
    await enqueuePaymentIntentEvent(tx, tenant, 'payment_intent.requires_action', intent);
    return intent;
  }
}
