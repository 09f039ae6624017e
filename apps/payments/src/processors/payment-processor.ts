import type { Mode } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';

/** What payments asks a processor to charge; `chargeId` is the processor's idempotency key. */
export interface ChargeRequest {
  chargeId: string;
  amount: number;
  currency: string;
  paymentMethod: string;
}

/** A charge as the processor tells it now. */
export type ChargeOutcome =
  | { status: 'succeeded' }
  | { status: 'failed'; code: string; message: string }
  /** The buyer must authenticate at `redirectUrl` before the processor decides. */
  | { status: 'requires_action'; redirectUrl: string }
  /** Not decided yet: ask again later. */
  | { status: 'processing' };

/**
 * The one small interface every processor implements (decision 0061). `charge` is idempotent by
 * `chargeId`: asked again, the processor answers the same charge as it now stands, never a
 * second one, so a confirmation cut off midway is finished by asking again.
 */
export interface PaymentProcessor {
  /** Refuses (400 parameter_invalid on payment_method) a method this processor cannot charge, before anything is asked. */
  assertChargeable(paymentMethod: string): void;
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  /**
   * Gives a succeeded charge's money back in full, before any payment was made of it (an order
   * whose units were lost before it could be sold); asked again, answers the same. The charge
   * then reads as failed with `failure`.
   */
  reverse(chargeId: string, failure: { code: string; message: string }): Promise<void>;
  /**
   * The charge awaiting the buyer (requires_action) will not be completed: from now on the
   * processor fails it. False when the buyer completed it first: it is no longer abandoned.
   */
  abandon(chargeId: string): Promise<boolean>;
  /** Gives `amount` of a succeeded charge back to the buyer, idempotent by `refundId`: asked again, nothing more is given back. */
  refund(request: { refundId: string; chargeId: string; amount: number }): Promise<void>;
}

/**
 * The processor of each mode: the sandbox serves test mode; live mode uses the one configured
 * for the deployment, and without one, live charges are refused, never simulated.
 */
export class Processors {
  constructor(
    private readonly sandbox: PaymentProcessor,
    private readonly live: PaymentProcessor | null,
  ) {}

  of(mode: Mode): PaymentProcessor {
    if (mode === 'test') return this.sandbox;
    if (!this.live) {
      throw new ApiError(
        'live_payments_unavailable',
        'Live payments are not available: no payment processor is configured for this deployment, so nothing was charged. Use a test key (sk_test_…) for sandbox payments, or ask the operator to configure a live processor.',
      );
    }
    return this.live;
  }
}
