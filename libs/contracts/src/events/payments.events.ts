import { z } from 'zod';
import { CONNECT_ACCOUNT_STATUSES, PAYOUT_STATUSES } from '../payment-values';
import { defineTopic, type PayloadsOf } from './envelope';

/** Why a charge failed, as the intent's last_payment_error tells it. */
export const paymentErrorFactsSchema = z.object({
  code: z.string().min(1),
  message: z.string(),
  payment_method: z.string().min(1),
});

/** What an order intent buys (decision 0062): ticketing issues each line's tickets under its issuance id once the intent succeeds. */
export const orderFactsSchema = z.object({
  event_id: z.string().min(1),
  customer: z.object({ email: z.string().min(1), name: z.string().nullable() }),
  /** The discount that priced the order; null when none did. */
  discount_id: z.string().min(1).nullable(),
  lines: z
    .array(
      z.object({
        tier_id: z.string().min(1),
        quantity: z.number().int().positive(),
        /** What the line costs, discount included, in minor units of the intent's currency. */
        amount: z.number().int().nonnegative(),
        issuance_id: z.string().min(1),
        /** The seat hold whose seats the line sells (a seated tier's); null otherwise. */
        seat_hold_id: z.string().min(1).nullable().default(null),
      }),
    )
    .min(1),
});
export type OrderFacts = z.infer<typeof orderFactsSchema>;

/** A payment intent after a change: what a receiver needs to act on it without reading it back. */
export const paymentIntentFactsSchema = z.object({
  payment_intent_id: z.string().min(1),
  status: z.string().min(1),
  /** Minor units of `currency`. */
  amount: z.number().int().positive(),
  currency: z.string().length(3),
  /** null until one is given. */
  payment_method: z.string().min(1).nullable(),
  /** The payment a succeeded intent made; null before. */
  payment_id: z.string().min(1).nullable(),
  last_payment_error: paymentErrorFactsSchema.nullable(),
  /** The intent's own keys ({} when it has none). */
  metadata: z.record(z.string(), z.string()),
  /** What an order intent buys; null for a plain amount. */
  order: orderFactsSchema.nullable(),
});
export type PaymentIntentFacts = z.infer<typeof paymentIntentFactsSchema>;

/** Keyed by the intent's id, so one intent's changes stay in order (decision 0061). */
export const PAYMENTS_PAYMENT_INTENT_TOPIC = defineTopic('payments.payment_intent.v1', {
  'payment_intent.created': paymentIntentFactsSchema,
  /** The buyer must authenticate at the intent's next_action.redirect_url. */
  'payment_intent.requires_action': paymentIntentFactsSchema,
  /** Charged: `payment_id` holds the money. */
  'payment_intent.succeeded': paymentIntentFactsSchema,
  /** A charge failed; the intent awaits another payment method (`last_payment_error` says why). */
  'payment_intent.payment_failed': paymentIntentFactsSchema,
  'payment_intent.canceled': paymentIntentFactsSchema,
});
export type PaymentIntentPayloads = PayloadsOf<typeof PAYMENTS_PAYMENT_INTENT_TOPIC>;

/** A payout after a change (decision 0063). */
export const payoutFactsSchema = z.object({
  payout_id: z.string().min(1),
  status: z.enum(PAYOUT_STATUSES),
  amount: z.number().int().positive(),
  currency: z.string().length(3),
  /** Why it failed; null unless it did. */
  failure_code: z.string().min(1).nullable(),
});
export type PayoutFacts = z.infer<typeof payoutFactsSchema>;

/** Keyed by the payout's id. */
export const PAYMENTS_PAYOUT_TOPIC = defineTopic('payments.payout.v1', {
  'payout.created': payoutFactsSchema,
  /** On its way to the bank (in_transit). */
  'payout.updated': payoutFactsSchema,
  'payout.paid': payoutFactsSchema,
  /** The bank refused it: the money is back in the available balance. */
  'payout.failed': payoutFactsSchema,
});
export type PayoutPayloads = PayloadsOf<typeof PAYMENTS_PAYOUT_TOPIC>;

/** The payout account after a change: its onboarding state and what it still needs. */
export const connectAccountFactsSchema = z.object({
  connect_account_id: z.string().min(1),
  status: z.enum(CONNECT_ACCOUNT_STATUSES),
  requirements_due: z.array(z.string()),
  payouts_enabled: z.boolean(),
});

/** Keyed by the connect account's id. */
export const PAYMENTS_CONNECT_ACCOUNT_TOPIC = defineTopic('payments.connect_account.v1', {
  'connect_account.updated': connectAccountFactsSchema,
});

/** Money given back from a payment (decision 0064). */
export const paymentRefundFactsSchema = z.object({
  payment_id: z.string().min(1),
  payment_intent_id: z.string().min(1),
  refund_id: z.string().min(1),
  /** This refund, in minor units of `currency`. */
  amount: z.number().int().positive(),
  currency: z.string().length(3),
  /** Everything given back of the payment so far, this refund included. */
  amount_refunded: z.number().int().positive(),
});

/** Keyed by the payment's id. */
export const PAYMENTS_PAYMENT_TOPIC = defineTopic('payments.payment.v1', {
  'payment.refunded': paymentRefundFactsSchema,
});
