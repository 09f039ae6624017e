import type { Tenant } from '@ticketing/auth';
import { PAYMENTS_PAYMENT_INTENT_TOPIC, type PaymentIntentFacts, type PaymentIntentPayloads } from '@ticketing/contracts';
import { enqueueEvent } from '@ticketing/kafka';
import type { PaymentsDb } from '../db';
import type { PaymentIntent } from '../domain/payment-intent';

export type PaymentIntentEventType = keyof PaymentIntentPayloads;

export function paymentIntentFacts(intent: PaymentIntent): PaymentIntentFacts {
  return {
    payment_intent_id: intent.id,
    status: intent.status,
    amount: intent.amount,
    currency: intent.currency,
    payment_method: intent.payment_method,
    payment_id: intent.payment_id,
    last_payment_error: intent.last_payment_error,
    metadata: intent.metadata,
    order: intent.order && {
      event_id: intent.order.event_id,
      customer: intent.order.customer,
      discount_id: intent.order.discount_id,
      lines: intent.order.lines.map(({ tier_id, quantity, amount, issuance_id, seat_hold_id }) => ({ tier_id, quantity, amount, issuance_id, seat_hold_id })),
    },
  };
}

/** Enqueues the intent's event in the caller's transaction, with the state it commits. */
export async function enqueuePaymentIntentEvent(tx: PaymentsDb, tenant: Tenant, type: PaymentIntentEventType, intent: PaymentIntent): Promise<void> {
  await enqueueEvent(tx, { topic: PAYMENTS_PAYMENT_INTENT_TOPIC, type, aggregateId: intent.id, tenant, data: paymentIntentFacts(intent) });
}
