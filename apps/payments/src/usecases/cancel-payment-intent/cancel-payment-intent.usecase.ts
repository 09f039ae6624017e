import { claimsForTenant, type InternalClaims, type Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { Logger } from '@ticketing/observability';
import type { CatalogOrders } from '../../catalog/catalog-orders';
import type { OrderSeatHolds } from '../../ticketing/seat-holds';
import type { PrismaClient } from '../../db';
import { canceledNow, unexpectedState, type CancellationReason, type PaymentIntent } from '../../domain/payment-intent';
import type { Processors } from '../../processors/payment-processor';
import { ChargeRepository } from '../../repositories/charge.repository';
import { PaymentIntentRepository } from '../../repositories/payment-intent.repository';
import { enqueuePaymentIntentEvent } from '../../repositories/payment-intent-events';

const CANCELABLE = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action']);

const ABANDONED = { code: 'payment_intent_canceled', message: 'The payment intent was canceled before the buyer authenticated.' };

/**
 * Cancels an intent (decision 0062): by its client, or when an order intent expires unpaid.
 * Only one that is not processing or succeeded: a charge in flight finishes first. A charge
 * awaiting the buyer's authentication is abandoned at the processor first; if the buyer completed
 * it meanwhile, the intent is not canceled (it is processing). The intent is canceled with
 * payment_intent.canceled, then its order's units, seat hold and discount are given back; if
 * catalog or ticketing does not answer, they return when their hold lapses.
 */
export class CancelPaymentIntentUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly processors: Processors,
    private readonly catalog: CatalogOrders,
    private readonly seatHolds: OrderSeatHolds,
    private readonly logger: Logger,
  ) {}

  async execute(claims: InternalClaims | null, tenant: Tenant, id: string, reason: CancellationReason): Promise<PaymentIntent> {
    const before = await new PaymentIntentRepository(this.prisma).findById(tenant, id);
    if (!before) throw ApiError.resourceMissing('payment_intent', id);
    if (!CANCELABLE.has(before.status)) throw unexpectedState(before, 'cancel');
    const awaitingBuyer = before.status === 'requires_action' ? await new ChargeRepository(this.prisma).openOf(before.id) : null;
    if (awaitingBuyer && !(await this.processors.of(tenant.mode).abandon(awaitingBuyer.id))) throw unexpectedState({ ...before, status: 'processing' }, 'cancel');

    const canceled = await this.prisma.$transaction(async (tx) => {
      const intents = new PaymentIntentRepository(tx);
      const intent = (await intents.lockById(tenant, id))!;
      if (!CANCELABLE.has(intent.status)) throw unexpectedState(intent, 'cancel');
      if (awaitingBuyer) await new ChargeRepository(tx).settle(awaitingBuyer.id, ['requires_action'], 'failed', ABANDONED);
      const changed = await intents.change(tenant, id, { ...canceledNow(intent, reason), next_action: null });
      await enqueuePaymentIntentEvent(tx, tenant, 'payment_intent.canceled', changed);
      return changed;
    });
    await this.giveBack(claims ?? claimsForTenant(tenant), canceled);
    return canceled;
  }

  private async giveBack(claims: InternalClaims, intent: PaymentIntent): Promise<void> {
    const { order } = intent;
    if (!order) return;
    try {
      await this.catalog.withdraw(claims, order.lines);
      for (const line of order.lines) if (line.seat_hold_id) await this.seatHolds.letGo(claims, line.seat_hold_id, line.issuance_id);
      if (order.discount_id) await this.catalog.releaseRedemption(claims, order.discount_id, intent.id);
    } catch (error) {
      this.logger.warn({ err: error, payment_intent_id: intent.id }, 'a canceled order’s units (or seat hold) were not given back now; they return when their hold lapses');
    }
  }
}
