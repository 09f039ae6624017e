/** A payment intent's states (decision 0061), as the API shows them. */
export const PAYMENT_INTENT_STATUSES = ['requires_payment_method', 'requires_confirmation', 'requires_action', 'processing', 'succeeded', 'canceled'] as const;
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

/** How long an order intent holds its units unpaid (decision 0062). */
export const ORDER_LIFETIME_MINUTES = 15;
/** The most tiers one order intent buys. */
export const MAX_ORDER_ITEMS = 20;

/** The most one intent may take, in minor units: Stripe's eight digits. */
export const MAX_INTENT_AMOUNT = 99_999_999;

/** A payout's states (decision 0063). */
export const PAYOUT_STATUSES = ['pending', 'in_transit', 'paid', 'failed'] as const;

/** A connect account's onboarding states (decision 0063). */
export const CONNECT_ACCOUNT_STATUSES = ['onboarding', 'pending_verification', 'enabled'] as const;
