import { ApiError } from '@ticketing/errors';

/** What the sandbox does with a test payment method (decision 0061). */
export type SandboxBehaviour =
  | { kind: 'succeeds' }
  | { kind: 'declines'; code: string; message: string }
  /** Asks the buyer to authenticate; the charge succeeds if they do, and fails if they refuse. */
  | { kind: 'requires_authentication' }
  /** Stays processing for the sandbox's delay, then fails. */
  | { kind: 'declines_after_delay'; code: string; message: string };

/** Stripe's test payment method names, and one of our own for a charge that fails late. */
export const SANDBOX_PAYMENT_METHODS: Readonly<Record<string, SandboxBehaviour>> = {
  pm_card_visa: { kind: 'succeeds' },
  pm_card_mastercard: { kind: 'succeeds' },
  pm_card_chargeDeclined: { kind: 'declines', code: 'card_declined', message: 'Your card was declined.' },
  pm_card_chargeDeclinedInsufficientFunds: { kind: 'declines', code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  pm_card_authenticationRequired: { kind: 'requires_authentication' },
  pm_card_chargeDeclinedAfterDelay: { kind: 'declines_after_delay', code: 'processing_error', message: 'The card’s issuer did not approve the charge in time.' },
};

/** Failure of a charge whose buyer refused (or failed) the authentication. */
export const AUTHENTICATION_FAILURE = { code: 'authentication_failed', message: 'The buyer did not complete the card’s authentication.' } as const;

export function sandboxBehaviour(paymentMethod: string): SandboxBehaviour {
  const behaviour = Object.hasOwn(SANDBOX_PAYMENT_METHODS, paymentMethod) ? SANDBOX_PAYMENT_METHODS[paymentMethod] : undefined;
  if (!behaviour) {
    throw new ApiError('parameter_invalid', `payment_method must be one of the test payment methods in test mode: ${Object.keys(SANDBOX_PAYMENT_METHODS).join(', ')}.`, {
      param: 'payment_method',
    });
  }
  return behaviour;
}
