import type { InternalClaims } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import type { PaymentClaims } from '../../src/payments/payment-intents';

interface DoubleIntent {
  amount: number;
  currency: string;
  /** An order intent's lines' issuances: it pays for those only. */
  lines: string[] | null;
  claimedBy: string | null;
}

/** Payments' claims in memory, held to the contract of payment_intents.proto (ClaimPaymentIntent, ReleasePaymentIntentClaim). */
export class PaymentsDouble implements PaymentClaims {
  private readonly intents = new Map<string, DoubleIntent>();
  /** Claims asked for, refused ones included. */
  claimCalls = 0;

  /** A succeeded plain intent of `amount`. */
  succeeded(amount: number, currency = 'EUR'): string {
    const id = newId('pi');
    this.intents.set(id, { amount, currency, lines: null, claimedBy: null });
    return id;
  }

  /** A succeeded order intent paying for these issuances. */
  order(issuanceIds: string[]): string {
    const id = newId('pi');
    this.intents.set(id, { amount: 1, currency: 'EUR', lines: issuanceIds, claimedBy: null });
    return id;
  }

  claimedBy(intentId: string): string | null {
    return this.intents.get(intentId)?.claimedBy ?? null;
  }

  async claim(_claims: InternalClaims, intentId: string, issuance: { id: string; amount: number; currency: string }): Promise<void> {
    this.claimCalls += 1;
    const intent = this.intents.get(intentId);
    if (!intent) throw ApiError.resourceMissing('payment_intent', intentId, 'payment.payment_intent');
    if (intent.lines) {
      if (intent.lines.includes(issuance.id)) return;
      throw new ApiError('payment_intent_used', `Payment intent ${intentId} paid for its own order.`, { param: 'payment.payment_intent' });
    }
    if (intent.claimedBy !== null && intent.claimedBy !== issuance.id) throw new ApiError('payment_intent_used', `Payment intent ${intentId} already paid for issuance ${intent.claimedBy}.`, { param: 'payment.payment_intent' });
    if (intent.amount !== issuance.amount || intent.currency !== issuance.currency) throw new ApiError('parameter_invalid', `Payment intent ${intentId} is of ${intent.amount} ${intent.currency}.`, { param: 'payment.payment_intent' });
    intent.claimedBy = issuance.id;
  }

  async release(_claims: InternalClaims, intentId: string, issuanceId: string): Promise<void> {
    const intent = this.intents.get(intentId);
    if (intent?.claimedBy === issuanceId) intent.claimedBy = null;
  }
}
