/** A payment intent's states (decision 0061), as the API shows them. */
export const PAYMENT_INTENT_STATUSES = ['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing', 'succeeded', 'canceled'] as const;
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

/** The most one intent may take, in minor units: Stripe's eight digits. */
export const MAX_INTENT_AMOUNT = 99_999_999;
