import type { Mode } from '@ticketing/auth';
import { isCurrencyCode, MAX_INTENT_AMOUNT, type PaymentIntentStatus } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { optionalText, validMetadata } from '@ticketing/fields';
import type { Order, OrderInventory } from './order';

/**
 * A payment intent's states (decision 0061), Stripe's:
 *
 *   requires_payment_method ──(payment method given)──> requires_confirmation
 *   requires_payment_method | requires_confirmation ──(confirm)──> processing
 *   processing ──> succeeded | requires_action | requires_payment_method (the charge failed)
 *   requires_action ──(buyer authenticated)──> processing; (failed to) ──> requires_payment_method
 *   any state but processing and succeeded ──(cancel)──> canceled
 */
export type { PaymentIntentStatus };

/** Why the last charge failed. */
export interface PaymentError {
  code: string;
  message: string;
  payment_method: string;
}

/** What the buyer must do before the intent moves on. */
export interface NextAction {
  type: 'redirect_to_url';
  redirect_url: string;
}

export interface PaymentIntent {
  id: string;
  mode: Mode;
  amount: number;
  currency: string;
  description: string | null;
  metadata: Record<string, string>;
  status: PaymentIntentStatus;
  payment_method: string | null;
  last_payment_error: PaymentError | null;
  next_action: NextAction | null;
  payment_id: string | null;
  canceled_at: Date | null;
  cancellation_reason: string | null;
  /** What an order intent buys; null for a plain amount, as are expires_at and inventory. */
  order: Order | null;
  expires_at: Date | null;
  inventory: OrderInventory | null;
  /** The issuance or upgrade a succeeded plain intent pays for (decision 0064); null until one claims it. */
  claimed_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const DESCRIPTION_MAX_LENGTH = 1000;
const PAYMENT_METHOD_MAX_LENGTH = 255;

export interface NewPaymentIntent {
  amount: number;
  currency: string;
  description: string | null;
  metadata: Record<string, string>;
  payment_method: string | null;
  status: Extract<PaymentIntentStatus, 'requires_payment_method' | 'requires_confirmation'>;
}

/** An order intent: its amount and currency are the order's, as catalog priced it. */
export interface NewOrderIntent extends NewPaymentIntent {
  order: Order;
  expires_at: Date;
}

/** A plain-amount intent as asked for; one with a payment method awaits only its confirmation. */
export function validNewPaymentIntent(command: { amount: number; currency: string; description: string; metadata: Record<string, string>; payment_method: string }): NewPaymentIntent {
  if (!Number.isSafeInteger(command.amount) || command.amount < 1 || command.amount > MAX_INTENT_AMOUNT) {
    throw new ApiError('parameter_invalid', `amount must be a whole number of minor units from 1 to ${MAX_INTENT_AMOUNT}, such as 4500 for 45.00.`, { param: 'amount' });
  }
  if (!isCurrencyCode(command.currency)) {
    throw new ApiError('parameter_invalid', 'currency must be an ISO 4217 currency code, such as EUR.', { param: 'currency' });
  }
  return { amount: command.amount, currency: command.currency.toUpperCase(), ...validIntentDetails(command) };
}

/** What any intent may be given beside its amount. */
export function validIntentDetails(command: { description: string; metadata: Record<string, string>; payment_method: string }): Pick<NewPaymentIntent, 'description' | 'metadata' | 'payment_method' | 'status'> {
  const paymentMethod = validPaymentMethod(command.payment_method);
  return {
    description: optionalText(command.description, 'description', DESCRIPTION_MAX_LENGTH),
    metadata: validMetadata(command.metadata),
    payment_method: paymentMethod,
    status: paymentMethod ? 'requires_confirmation' : 'requires_payment_method',
  };
}

/** An order's total as an intent's amount: something to pay, within what one intent takes. */
export function orderAmount(total: number): number {
  if (total === 0) {
    throw new ApiError('parameter_invalid', 'This order costs nothing, so there is nothing to pay: issue its tickets with POST /v1/events/{id}/tickets instead.', { param: 'order' });
  }
  if (total > MAX_INTENT_AMOUNT) throw new ApiError('parameter_invalid', `This order costs ${total} minor units, more than one payment intent takes (${MAX_INTENT_AMOUNT}); split it.`, { param: 'order.items' });
  return total;
}

/** A payment method's name as given (empty: none); which names a processor takes is its own to say. */
export function validPaymentMethod(value: string): string | null {
  return optionalText(value, 'payment_method', PAYMENT_METHOD_MAX_LENGTH);
}

/** Why an intent was canceled: by its client (POST …/cancel), or its order's units released unpaid or lost. */
export type CancellationReason = 'requested_by_customer' | 'expired';

/** The change that cancels an intent now; an order intent's units are then given back. */
export function canceledNow(intent: Pick<PaymentIntent, 'order'>, reason: CancellationReason) {
  return { status: 'canceled' as const, canceled_at: new Date(), cancellation_reason: reason, ...(intent.order && { inventory: 'released' as const }) };
}

const CONFIRMABLE: ReadonlySet<PaymentIntentStatus> = new Set(['requires_payment_method', 'requires_confirmation']);

/**
 * The payment method a confirmation charges: the one it gives, else the intent's. Refused unless
 * the intent awaits a payment method or a confirmation, with what to do instead.
 */
export function methodToCharge(intent: Pick<PaymentIntent, 'id' | 'status' | 'payment_method' | 'expires_at'>, given: string | null, now: Date): string {
  if (!CONFIRMABLE.has(intent.status)) throw unexpectedState(intent, 'confirm');
  if (intent.expires_at && intent.expires_at <= now) {
    throw new ApiError('payment_intent_unexpected_state', `You cannot confirm payment intent ${intent.id}: it expired at ${intent.expires_at.toISOString()} and its order's tickets were released. Create a new payment intent.`);
  }
  const method = given ?? intent.payment_method;
  if (!method) {
    throw new ApiError('parameter_missing', 'Missing required parameter: payment_method. The payment intent has none yet; give one to charge, such as pm_card_visa in test mode.', { param: 'payment_method' });
  }
  return method;
}

const STATE_EXPLANATIONS: Record<PaymentIntentStatus, string> = {
  requires_payment_method: 'it awaits a payment method',
  requires_confirmation: 'it awaits its confirmation',
  requires_action: 'it awaits the buyer’s authentication at next_action.redirect_url',
  processing: 'a charge of it is being processed; read it back for the outcome',
  succeeded: 'it has already succeeded',
  canceled: 'it was canceled; create a new payment intent',
};

/** 409 payment_intent_unexpected_state: the intent is not in a state the action applies to. */
export function unexpectedState(intent: Pick<PaymentIntent, 'id' | 'status'>, action: string): ApiError {
  return new ApiError('payment_intent_unexpected_state', `You cannot ${action} payment intent ${intent.id} while its status is ${intent.status}: ${STATE_EXPLANATIONS[intent.status]}.`);
}
