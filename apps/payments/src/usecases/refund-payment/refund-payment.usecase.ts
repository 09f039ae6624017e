import { PAYMENTS_PAYMENT_TOPIC } from '@ticketing/contracts';
import type { Tenant } from '@ticketing/auth';
import { keyHashOf, type IdempotentWrite } from '@ticketing/db';
import { ApiError } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import { enqueueEvent } from '@ticketing/kafka';
import type { Logger } from '@ticketing/observability';
import type { PrismaClient } from '../../db';
import { refundTransaction } from '../../domain/ledger';
import type { Processors } from '../../processors/payment-processor';
import { LedgerRepository } from '../../repositories/ledger.repository';
import { PaymentRepository, type Payment } from '../../repositories/payment.repository';
import { RefundRepository, type Refund } from '../../repositories/refund.repository';

export interface RefundRequest {
  /** The payment, or the intent that made it. */
  of: { id: string } | { payment_intent_id: string };
  /** Minor units; null for all that is left. */
  amount: number | null;
  /** When more is asked than is left: give what is left (a ticket's refund), or refuse (a client's request). */
  beyondWhatIsLeft: 'give_what_is_left' | 'refuse';
  reason: string | null;
  /** What asked for it, unique across tenants (a ticket change's id, a tenant's Idempotency-Key); a source is refunded once. */
  source_id: string;
}

const BATCH = 100;

/**
 * Gives money back from a payment (decision 0064), never more than what is left of it: first,
 * under the payment's lock, the refund is recorded as pending and counted against the payment
 * (so concurrent refunds never give back more than was paid); then the processor gives it back
 * under the refund's id; then it succeeds with its ledger transaction and payment.refunded. A
 * refund cut off midway stays pending, and the re-driver finishes it; a source asked again
 * answers its refund. Answers null when nothing is left to give back.
 */
export class RefundPaymentUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly processors: Processors,
    private readonly logger: Logger,
  ) {}

  async execute(tenant: Tenant, request: RefundRequest): Promise<Refund | null> {
    const recorded = await this.prisma.$transaction(async (tx) => {
      const earlier = await new RefundRepository(tx).findBySource(tenant, request.source_id);
      if (earlier) return earlier;
      const payments = new PaymentRepository(tx);
      const payment = await payments.lock(tenant, request.of);
      if (!payment) throw 'id' in request.of ? ApiError.resourceMissing('payment', request.of.id, 'payment') : ApiError.resourceMissing('payment of payment intent', request.of.payment_intent_id);
      const amount = refundAmount(payment, request);
      if (amount === 0) return null;
      await payments.addRefunded(payment.id, amount);
      return new RefundRepository(tx).create(tenant, { id: newId('re'), payment_id: payment.id, amount, currency: payment.currency, reason: request.reason, source_id: request.source_id });
    });
    if (recorded?.status === 'pending') await this.finish(recorded);
    return recorded && { ...recorded, status: 'succeeded' };
  }

  /**
   * A client's refund of money alone (`POST /v1/refunds`): more than is left is refused, and so is
   * a payment with nothing left. Under an Idempotency-Key the key, scoped by the tenant, is the
   * refund's source, so a retry answers the same refund.
   */
  async forClient(tenant: Tenant, request: { payment_id: string; amount: number; reason: string }, call: IdempotentWrite | undefined): Promise<Refund> {
    const refund = await this.execute(tenant, {
      of: { id: request.payment_id },
      amount: request.amount || null,
      beyondWhatIsLeft: 'refuse',
      reason: request.reason || null,
      source_id: call ? `key:${tenant.accountId}:${tenant.mode}:${keyHashOf(call)}` : newId('re'),
    });
    if (!refund) throw new ApiError('parameter_invalid', `Payment ${request.payment_id} has been refunded in full: nothing is left to give back.`, { param: 'payment' });
    return refund;
  }

  /** Finishes the refunds left pending (cut off midway) for longer than `stalledForMs`; answers how many. */
  async redrive(stalledForMs: number): Promise<number> {
    let finished = 0;
    for (const refund of await new RefundRepository(this.prisma).pendingSince(new Date(Date.now() - stalledForMs), BATCH)) {
      try {
        await this.finish(refund);
        finished += 1;
      } catch (error) {
        this.logger.warn({ err: error, refund_id: refund.id }, 'a pending refund could not be finished; it waits for the next pass');
      }
    }
    return finished;
  }

  private async finish(refund: Refund): Promise<void> {
    const tenant: Tenant = { accountId: refund.account_id, mode: refund.mode };
    const payment = (await new PaymentRepository(this.prisma).findById(tenant, refund.payment_id))!;
    await this.processors.of(refund.mode).refund({ refundId: refund.id, chargeId: payment.charge_id, amount: refund.amount });
    await this.prisma.$transaction(async (tx) => {
      if (!(await new RefundRepository(tx).succeed(refund.id))) return;
      await new LedgerRepository(tx).record(tenant, [refundTransaction(refund, new Date())]);
      const { amount_refunded } = (await new PaymentRepository(tx).findById(tenant, payment.id))!;
      await enqueueEvent(tx, {
        topic: PAYMENTS_PAYMENT_TOPIC,
        type: 'payment.refunded',
        aggregateId: payment.id,
        tenant,
        data: { payment_id: payment.id, payment_intent_id: payment.payment_intent_id, refund_id: refund.id, amount: refund.amount, currency: refund.currency, amount_refunded },
      });
    });
  }
}

/** How much this refund gives back: what was asked, within what is left of the payment. */
function refundAmount(payment: Payment, request: RefundRequest): number {
  const left = payment.amount - payment.amount_refunded;
  const asked = request.amount ?? left;
  if (asked <= left) return asked;
  if (request.beyondWhatIsLeft === 'give_what_is_left') return left;
  throw new ApiError('parameter_invalid', `amount must be at most ${left}, what is left of payment ${payment.id} to refund (${payment.amount_refunded} of ${payment.amount} ${payment.currency} already given back).`, { param: 'amount' });
}

