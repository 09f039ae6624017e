import { setTimeout as sleep } from 'node:timers/promises';
import type { PaymentsDb } from '../db';
import type { ChargeOutcome, ChargeRequest, PaymentProcessor } from '../processors/payment-processor';
import { AUTHENTICATION_FAILURE, sandboxBehaviour, type SandboxBehaviour } from './sandbox-payment-methods';

export interface SandboxSettings {
  /** How long a charge of pm_card_chargeDeclinedAfterDelay stays processing before it fails. */
  delayMs: number;
  /** Where the buyer of a charge that requires authentication is sent. */
  authenticationUrl(chargeId: string): string;
  /** How long the sandbox takes to answer a charge it has made, as a real processor's reply takes its time. */
  latencyMs: number;
}

interface SandboxChargeRow {
  outcome: 'succeeded' | 'failed' | 'requires_action' | 'pending';
  failure_code: string | null;
  failure_message: string | null;
  settles_at: Date | null;
}

/** The charge the sandbox records for a method's behaviour. */
function firstRecord(behaviour: SandboxBehaviour, now: number, delayMs: number): SandboxChargeRow {
  switch (behaviour.kind) {
    case 'succeeds':
      return { outcome: 'succeeded', failure_code: null, failure_message: null, settles_at: null };
    case 'declines':
      return { outcome: 'failed', failure_code: behaviour.code, failure_message: behaviour.message, settles_at: null };
    case 'requires_authentication':
      return { outcome: 'requires_action', failure_code: null, failure_message: null, settles_at: null };
    case 'declines_after_delay':
      return { outcome: 'pending', failure_code: behaviour.code, failure_message: behaviour.message, settles_at: new Date(now + delayMs) };
  }
}

/**
 * The test-mode processor (decision 0061): Stripe's test payment method names, decided at once
 * except for authentication and the late failure. Like a real processor it keeps its charges
 * (in payments' database, table sandbox_charges) and answers a charge asked for again under the
 * same id with the first one, so nothing is ever charged twice.
 */
export class SandboxProcessor implements PaymentProcessor {
  constructor(
    private readonly db: PaymentsDb,
    private readonly settings: SandboxSettings,
  ) {}

  assertChargeable(paymentMethod: string): void {
    sandboxBehaviour(paymentMethod);
  }

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    const first = firstRecord(sandboxBehaviour(request.paymentMethod), Date.now(), this.settings.delayMs);
    await this.db.$executeRaw`INSERT INTO sandbox_charges (charge_key, payment_method, amount, currency, outcome, failure_code, failure_message, settles_at)
      VALUES (${request.chargeId}, ${request.paymentMethod}, ${request.amount}, ${request.currency}, ${first.outcome}, ${first.failure_code}, ${first.failure_message}, ${first.settles_at})
      ON CONFLICT (charge_key) DO NOTHING`;
    if (this.settings.latencyMs > 0) await sleep(this.settings.latencyMs);
    const [recorded] = await this.db.$queryRaw<SandboxChargeRow[]>`SELECT outcome, failure_code, failure_message, settles_at FROM sandbox_charges WHERE charge_key = ${request.chargeId}`;
    return this.outcomeOf(request.chargeId, recorded!);
  }

  async reverse(chargeId: string, failure: { code: string; message: string }): Promise<void> {
    await this.db.$executeRaw`UPDATE sandbox_charges SET outcome = 'failed', failure_code = ${failure.code}, failure_message = ${failure.message}, reversed = true
      WHERE charge_key = ${chargeId} AND outcome = 'succeeded'`;
  }

  async refund(request: { refundId: string; chargeId: string; amount: number }): Promise<void> {
    await this.db.$executeRaw`WITH recorded AS (
        INSERT INTO sandbox_refunds (refund_key, charge_key, amount) VALUES (${request.refundId}, ${request.chargeId}, ${request.amount})
        ON CONFLICT (refund_key) DO NOTHING RETURNING charge_key, amount)
      UPDATE sandbox_charges c SET refunded = c.refunded + r.amount FROM recorded r WHERE c.charge_key = r.charge_key`;
  }

  async abandon(chargeId: string): Promise<boolean> {
    if (await this.authenticate(chargeId, false)) return true;
    const [charge] = await this.db.$queryRaw<SandboxChargeRow[]>`SELECT outcome FROM sandbox_charges WHERE charge_key = ${chargeId}`;
    return charge?.outcome !== 'succeeded';
  }

  /**
   * The buyer's answer to the authentication of a charge: it succeeds if they authenticated,
   * and fails otherwise. False when the charge was not awaiting one (answered already).
   */
  async authenticate(chargeId: string, authenticated: boolean): Promise<boolean> {
    const decided = authenticated
      ? await this.db.$executeRaw`UPDATE sandbox_charges SET outcome = 'succeeded' WHERE charge_key = ${chargeId} AND outcome = 'requires_action'`
      : await this.db.$executeRaw`UPDATE sandbox_charges SET outcome = 'failed', failure_code = ${AUTHENTICATION_FAILURE.code}, failure_message = ${AUTHENTICATION_FAILURE.message}
          WHERE charge_key = ${chargeId} AND outcome = 'requires_action'`;
    return decided === 1;
  }

  private outcomeOf(chargeId: string, row: SandboxChargeRow): ChargeOutcome {
    switch (row.outcome) {
      case 'succeeded':
        return { status: 'succeeded' };
      case 'failed':
        return { status: 'failed', code: row.failure_code!, message: row.failure_message! };
      case 'requires_action':
        return { status: 'requires_action', redirectUrl: this.settings.authenticationUrl(chargeId) };
      case 'pending':
        return row.settles_at!.getTime() <= Date.now() ? { status: 'failed', code: row.failure_code!, message: row.failure_message! } : { status: 'processing' };
    }
  }
}
