import { ApiError } from '@ticketing/errors';
import { integerInRange, requiredIdParam, requiredText } from '@ticketing/fields';

/** Money taken outside this API, with the caller's reference for it. */
export interface ExternalPayment {
  type: 'external';
  reference: string;
  amount: number;
}

/** A payment intent of the payments service named to pay (decision 0064), before what it must be of is known. */
export interface PaymentIntentNamed {
  type: 'payment_intent';
  reference: string;
}

/** Paid through a payment intent of the payments service (decision 0064): `reference` is its id (pi_…). */
export interface PaymentIntentPayment extends PaymentIntentNamed {
  amount: number;
}

const PAYMENT_REFERENCE_MAX_LENGTH = 255;

/**
 * How a sale or an upgrade says it is paid: money taken elsewhere (`payment`), a payment intent
 * (`payment_intent_id`, '' when none), or nothing (null); not both.
 */
export function validPayment(payment: { reference: string; amount: number } | undefined, intentIdGiven: string | undefined): ExternalPayment | PaymentIntentNamed | null {
  const intentId = intentIdGiven ? requiredIdParam(intentIdGiven, 'payment.payment_intent') : null;
  if (payment && intentId) throw new ApiError('parameter_invalid', 'Give one payment: money taken elsewhere, or a payment intent.', { param: 'payment' });
  if (intentId) return { type: 'payment_intent', reference: intentId };
  if (!payment) return null;
  return {
    type: 'external',
    reference: requiredText(payment.reference, 'payment.reference', PAYMENT_REFERENCE_MAX_LENGTH),
    amount: integerInRange(payment.amount, 'payment.amount', 0, Number.MAX_SAFE_INTEGER),
  };
}
