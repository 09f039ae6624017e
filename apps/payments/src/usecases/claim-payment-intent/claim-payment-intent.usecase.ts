import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { unexpectedState, type PaymentIntent } from '../../domain/payment-intent';
import { PaymentIntentRepository } from '../../repositories/payment-intent.repository';

export interface Claim {
  id: string;
  /** The issuance the intent pays for. */
  claimed_by: string;
  amount: number;
  currency: string;
}

/** The refusal of a claim, saying what is wrong with the intent for this issuance. */
function refusal(intent: PaymentIntent, claim: Claim): ApiError {
  const param = 'payment.payment_intent';
  if (intent.status !== 'succeeded') return unexpectedState(intent, 'pay with');
  if (intent.order) {
    return new ApiError('payment_intent_used', `Payment intent ${intent.id} paid for its own order, whose tickets are issued with it; it cannot pay for another issuance.`, { param });
  }
  if (intent.claimed_by !== null && intent.claimed_by !== claim.claimed_by) {
    return new ApiError('payment_intent_used', `Payment intent ${intent.id} already paid for issuance ${intent.claimed_by}; an intent pays for one issuance. Create a new payment intent.`, { param });
  }
  return new ApiError(
    'parameter_invalid',
    `Payment intent ${intent.id} is of ${intent.amount} ${intent.currency}; this order costs ${claim.amount} ${claim.currency}, and an intent must be of exactly the order's total.`,
    { param },
  );
}

/**
 * A succeeded intent paying for one issuance (decision 0064): ticketing claims it for the
 * issuance before it sells the units. A plain intent of exactly the issuance's total, not claimed
 * by another, is claimed (again: the same answer); an order intent pays only for its own lines.
 * Releasing a claim (the issuance was refused) lets the intent pay again.
 */
export class ClaimPaymentIntentUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async claim(tenant: Tenant, claim: Claim): Promise<PaymentIntent> {
    return this.prisma.$transaction(async (tx) => {
      const intents = new PaymentIntentRepository(tx);
      const intent = await intents.lockById(tenant, claim.id);
      if (!intent) throw ApiError.resourceMissing('payment_intent', claim.id, 'payment.payment_intent');
      if (intent.order?.lines.some((line) => line.issuance_id === claim.claimed_by)) return intent;
      const fits = intent.status === 'succeeded' && !intent.order && intent.amount === claim.amount && intent.currency === claim.currency.toUpperCase();
      if (!fits || (intent.claimed_by !== null && intent.claimed_by !== claim.claimed_by)) throw refusal(intent, claim);
      if (intent.claimed_by === null) await intents.claim(tenant, claim.id, claim.claimed_by);
      return intent;
    });
  }

  async release(tenant: Tenant, id: string, claimedBy: string): Promise<PaymentIntent> {
    const intents = new PaymentIntentRepository(this.prisma);
    await intents.releaseClaim(tenant, id, claimedBy);
    const intent = await intents.findById(tenant, id);
    if (!intent) throw ApiError.resourceMissing('payment_intent', id);
    return intent;
  }
}
