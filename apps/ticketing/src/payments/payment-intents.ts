import type { InternalClaims } from '@ticketing/auth';
import { paymentsV1 } from '@ticketing/contracts';
import { createGrpcClient, serviceCalls, type CallerOptions } from '@ticketing/grpc';

export function paymentIntentsClientAt(address: string): paymentsV1.PaymentIntentServiceClient {
  return createGrpcClient(paymentsV1.PaymentIntentServiceClient, address);
}

/**
 * Payments, as issuances paid through a payment intent use it (decision 0064): the intent is
 * claimed for the issuance before its units are sold, and the claim given up if the issuance is
 * refused after all. Both are idempotent by the issuance's id.
 */
export interface PaymentClaims {
  /** Refused (payment_intent_used, payment_intent_unexpected_state, parameter_invalid) unless the intent pays for exactly this issuance. */
  claim(claims: InternalClaims, intentId: string, issuance: { id: string; amount: number; currency: string }): Promise<void>;
  release(claims: InternalClaims, intentId: string, issuanceId: string): Promise<void>;
}

/** PaymentClaims through payments' gRPC API. */
export class PaymentIntents implements PaymentClaims {
  constructor(
    private readonly client: paymentsV1.PaymentIntentServiceClient,
    private readonly options: Omit<CallerOptions, 'idempotency'>,
  ) {}

  async claim(claims: InternalClaims, intentId: string, issuance: { id: string; amount: number; currency: string }): Promise<void> {
    await serviceCalls(this.client, claims, this.options).claimPaymentIntent({ id: intentId, claimed_by: issuance.id, amount: issuance.amount, currency: issuance.currency });
  }

  async release(claims: InternalClaims, intentId: string, issuanceId: string): Promise<void> {
    await serviceCalls(this.client, claims, this.options).releasePaymentIntentClaim({ id: intentId, claimed_by: issuanceId });
  }
}
