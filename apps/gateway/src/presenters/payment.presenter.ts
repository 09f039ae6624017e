import { z } from 'zod';
import { PAYMENT_INTENT_STATUSES, type paymentsV1 } from '@ticketing/contracts';
import { nullIfEmpty, oneOf } from './fields';
import { resourceFields, timestamp } from './resource.schema';

const money = (description: string) => z.number().int().meta({ description });

const paymentError = z
  .object({
    code: z.string().meta({ description: 'card_declined, insufficient_funds, authentication_failed or processing_error.', example: 'card_declined' }),
    message: z.string().meta({ description: 'Why, in words you can show the buyer.', example: 'Your card was declined.' }),
    payment_method: z.string().meta({ description: 'The payment method that failed.', example: 'pm_card_chargeDeclined' }),
  })
  .meta({ id: 'PaymentError' });

const nextAction = z
  .object({
    type: z.literal('redirect_to_url'),
    redirect_url: z.string().meta({ description: 'Send the buyer here to authenticate; the intent moves on once they have.' }),
  })
  .meta({ id: 'PaymentIntentNextAction' });

const orderResource = z
  .object({
    event_id: z.string(),
    lines: z.array(
      z.object({
        tier_id: z.string(),
        quantity: z.number().int(),
        unit_price: money('The tier’s price when the order was priced.'),
        amount: money('What the line costs, discount included.'),
        issuance: z.string().meta({ description: 'The ticket issuance (iss_…) its tickets come from once the intent succeeds; tickets carry it as issuance_id.' }),
        seat_hold: z.string().nullable().meta({ description: 'The seat hold whose seats the line buys; null for an unseated tier.' }),
      }),
    ),
    customer: z.object({ email: z.string(), name: z.string().nullable() }),
    discount: z.string().nullable().meta({ description: 'The discount (dsc_…) that priced the order; null when none did.' }),
    subtotal: money('Before the discount.'),
    discount_amount: money('Taken off by the discount.'),
  })
  .meta({ id: 'PaymentIntentOrder' });

export const paymentIntentResource = z
  .object({
    ...resourceFields('payment_intent'),
    amount: money('Minor units of currency: what the intent takes, e.g. 4500 for €45.00.'),
    currency: z.string().meta({ description: 'ISO 4217, upper case.', example: 'EUR' }),
    description: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    status: z.enum(PAYMENT_INTENT_STATUSES).meta({
      description:
        'requires_payment_method → requires_confirmation → processing → succeeded; requires_action while the buyer must authenticate (next_action); back to requires_payment_method when a charge fails (last_payment_error); canceled.',
    }),
    payment_method: z.string().nullable().meta({ description: 'The payment method to charge; null until one is given, and again after a charge of it failed.', example: 'pm_card_visa' }),
    last_payment_error: paymentError.nullable().meta({ description: 'Why the last charge failed; null unless it did.' }),
    next_action: nextAction.nullable().meta({ description: 'What the buyer must do; null unless the status is requires_action.' }),
    payment: z.string().nullable().meta({ description: 'The payment (pay_…) the intent made once it succeeded; null before.', example: 'pay_01JD3WK8M0P2R4T6V8X0Z2B4D6' }),
    canceled_at: timestamp.nullable(),
    cancellation_reason: z.string().nullable().meta({ description: 'Why it was canceled: requested_by_customer (POST …/cancel) or expired (an order unpaid by expires_at); null unless canceled.' }),
    order: orderResource.nullable().meta({ description: 'What an order intent buys; its amount and currency are the order’s. null for a plain amount.' }),
    expires_at: timestamp.nullable().meta({ description: 'An order intent holds its units until then; unpaid by then, it is canceled and they are released. null for a plain amount.' }),
    updated_at: timestamp,
  })
  .meta({
    id: 'PaymentIntent',
    example: {
      id: 'pi_01JD3WJ6K8M0P2R4T6V8X0Z2B4',
      object: 'payment_intent',
      livemode: false,
      amount: 9000,
      currency: 'EUR',
      description: 'Order 8812',
      metadata: { order: '8812' },
      status: 'succeeded',
      payment_method: 'pm_card_visa',
      last_payment_error: null,
      next_action: null,
      payment: 'pay_01JD3WK8M0P2R4T6V8X0Z2B4D6',
      canceled_at: null,
      cancellation_reason: null,
      order: null,
      expires_at: null,
      created_at: '2027-01-05T09:00:00.000Z',
      updated_at: '2027-01-05T09:00:01.000Z',
    },
  });

export const refundResource = z
  .object({
    ...resourceFields('refund'),
    payment: z.string().meta({ description: 'The payment (pay_…) it gives money back from.' }),
    amount: money('Minor units given back.'),
    currency: z.string().meta({ example: 'EUR' }),
    status: z.enum(['pending', 'succeeded']).meta({ description: 'pending while the processor gives it back; then succeeded.' }),
    reason: z.string().nullable(),
  })
  .meta({
    id: 'Refund',
    example: { id: 're_01JD3WP6T8V0X2Z4B6D8F0H2K4', object: 'refund', livemode: false, payment: 'pay_01JD3WK8M0P2R4T6V8X0Z2B4D6', amount: 4500, currency: 'EUR', status: 'succeeded', reason: 'Customer asked', created_at: '2027-01-06T09:00:00.000Z' },
  });

export const paymentResource = z
  .object({
    ...resourceFields('payment'),
    amount: money('Minor units of currency: what the buyer paid.'),
    currency: z.string().meta({ example: 'EUR' }),
    fee: money('The processing fee taken from it.'),
    net: money('amount − fee: what the payment adds to the balance.'),
    amount_refunded: money('Given back so far; at most amount.'),
    refunds: z.array(refundResource).meta({ description: 'Its refunds, newest first: of its tickets (POST /v1/tickets/{id}/refund) or asked for directly (POST /v1/refunds).' }),
    payment_intent: z.string().meta({ description: 'The intent that made it.' }),
    payment_method: z.string().meta({ example: 'pm_card_visa' }),
  })
  .meta({
    id: 'Payment',
    example: {
      id: 'pay_01JD3WK8M0P2R4T6V8X0Z2B4D6',
      object: 'payment',
      livemode: false,
      amount: 9000,
      currency: 'EUR',
      fee: 291,
      net: 8709,
      amount_refunded: 0,
      refunds: [],
      payment_intent: 'pi_01JD3WJ6K8M0P2R4T6V8X0Z2B4',
      payment_method: 'pm_card_visa',
      created_at: '2027-01-05T09:00:01.000Z',
    },
  });

export function presentPaymentIntent(intent: paymentsV1.PaymentIntent): z.output<typeof paymentIntentResource> {
  return {
    id: intent.id,
    object: 'payment_intent',
    livemode: intent.livemode,
    amount: intent.amount,
    currency: intent.currency,
    description: nullIfEmpty(intent.description),
    metadata: intent.metadata,
    status: oneOf(PAYMENT_INTENT_STATUSES, intent.status, 'payment intent status'),
    payment_method: nullIfEmpty(intent.payment_method),
    last_payment_error: intent.last_payment_error ?? null,
    next_action: intent.next_action ? { type: 'redirect_to_url', redirect_url: intent.next_action.redirect_url } : null,
    payment: nullIfEmpty(intent.payment_id),
    canceled_at: nullIfEmpty(intent.canceled_at),
    cancellation_reason: nullIfEmpty(intent.cancellation_reason),
    order: intent.order ? presentOrder(intent.order) : null,
    expires_at: nullIfEmpty(intent.expires_at),
    created_at: intent.created_at,
    updated_at: intent.updated_at,
  };
}

function presentOrder(order: paymentsV1.Order): z.output<typeof orderResource> {
  return {
    event_id: order.event_id,
    lines: order.lines.map((line) => ({ tier_id: line.tier_id, quantity: line.quantity, unit_price: line.unit_price, amount: line.amount, issuance: line.issuance_id, seat_hold: nullIfEmpty(line.seat_hold_id) })),
    customer: { email: order.customer?.email ?? '', name: nullIfEmpty(order.customer?.name ?? '') },
    discount: nullIfEmpty(order.discount_id),
    subtotal: order.subtotal,
    discount_amount: order.discount_amount,
  };
}

export function presentPayment(payment: paymentsV1.Payment): z.output<typeof paymentResource> {
  return {
    id: payment.id,
    object: 'payment',
    livemode: payment.livemode,
    amount: payment.amount,
    currency: payment.currency,
    fee: payment.fee,
    net: payment.net,
    amount_refunded: payment.amount_refunded,
    refunds: payment.refunds.map(presentRefund),
    payment_intent: payment.payment_intent_id,
    payment_method: payment.payment_method,
    created_at: payment.created_at,
  };
}

export function presentRefund(refund: paymentsV1.Refund): z.output<typeof refundResource> {
  return {
    id: refund.id,
    object: 'refund',
    livemode: refund.livemode,
    payment: refund.payment_id,
    amount: refund.amount,
    currency: refund.currency,
    status: oneOf(['pending', 'succeeded'] as const, refund.status, 'refund status'),
    reason: nullIfEmpty(refund.reason),
    created_at: refund.created_at,
  };
}
