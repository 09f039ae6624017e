import { z } from 'zod';
import { MAX_INTENT_AMOUNT, MAX_ORDER_ITEMS, ORDER_LIFETIME_MINUTES } from '@ticketing/contracts';
import { paymentIntentResource, paymentResource, presentPayment, presentPaymentIntent, presentRefund, refundResource } from '../presenters/payment.presenter';
import { absentOrNull, currency, discountCode, MAX_ORDER_QUANTITY, metadata, missing, resourceId, text, upTo, wholeNumber } from '../validation/fields';
import { newCustomer } from './customers.routes';
import { defineRoute, secretKey } from './route';

const TAG = 'Payments';
const access = secretKey('payments:write');

const paymentMethod = text(255).meta({
  description:
    'What to charge. In test mode, one of the sandbox’s test methods: pm_card_visa and pm_card_mastercard succeed, pm_card_chargeDeclined and pm_card_chargeDeclinedInsufficientFunds are declined, pm_card_authenticationRequired asks the buyer to authenticate, and pm_card_chargeDeclinedAfterDelay stays processing for a while, then fails.',
  example: 'pm_card_visa',
});

const order = z
  .strictObject({
    event_id: resourceId('evt'),
    items: z
      .array(z.strictObject({ tier_id: resourceId('tier'), quantity: wholeNumber(1, MAX_ORDER_QUANTITY).meta({ example: 2 }) }))
      .min(1)
      .max(MAX_ORDER_ITEMS)
      .meta({ description: `1 to ${MAX_ORDER_ITEMS} tiers of the event, each once, with its quantity (within the tier's per-order limits).` }),
    customer: newCustomer.meta({ description: 'The buyer the tickets are issued to, found by email (case-insensitive) or created.' }),
    discount_code: discountCode.optional().meta({ description: 'A code the buyer entered: the best applicable discount, this one or an automatic one, prices the order.', example: 'SUMMER25' }),
    seat_hold_id: resourceId('hold')
      .optional()
      .meta({ description: 'For a seated tier: the buyer’s seat hold (POST /v1/events/{id}/seats/hold), whose seats (exactly its item’s quantity) the order buys; it stays taken for the order until it is paid, canceled or expires.' }),
  })
  .meta({
    description: `Tickets to buy. Catalog prices the order (the client never sets its price) and holds its units for ${ORDER_LIFETIME_MINUTES} minutes: unpaid by expires_at, the intent is canceled and they are released. Once the intent succeeds, the tickets are issued. Refused with 409 sold_out when the units cannot all be held.`,
  });

const createPaymentIntentBody = z
  .strictObject({
    amount: wholeNumber(1, MAX_INTENT_AMOUNT).optional().meta({ description: 'Minor units of currency, e.g. 4500 for €45.00. Required unless the intent pays for an order, whose price catalog sets.', example: 9000 }),
    currency: currency.optional().meta({ description: 'ISO 4217. Required with amount; with an order, the event’s currency or left out.' }),
    order: absentOrNull(order),
    description: absentOrNull(upTo(1000).meta({ example: 'Order 8812' })),
    metadata: metadata.optional(),
    payment_method: absentOrNull(paymentMethod).meta({ description: 'Given now, the intent awaits only its confirmation.' }),
  })
  .superRefine((body, ctx) => {
    if (body.order !== undefined) {
      if (body.amount !== undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'must not be given with an order: catalog prices the order from its tiers', input: body.amount });
      return;
    }
    if (body.amount === undefined) missing(ctx, 'amount', 'Missing required parameter: amount (or an order)');
    if (body.currency === undefined) missing(ctx, 'currency', 'Missing required parameter: currency');
  })
  .meta({ example: { amount: 9000, currency: 'EUR', description: 'Order 8812', metadata: { order: '8812' } } });

const confirmPaymentIntentBody = z
  .strictObject({
    payment_method: absentOrNull(paymentMethod).meta({ description: 'Required unless the intent has one; replaces the one it has.' }),
  })
  .meta({ example: { payment_method: 'pm_card_visa' } });

export const paymentsRoutes = [
  defineRoute({
    operationId: 'createPaymentIntent',
    method: 'post',
    path: '/v1/payment_intents',
    summary: 'Create a payment intent',
    tag: TAG,
    access,
    errors: ['live_payments_unavailable', 'resource_missing', 'sold_out', 'event_not_on_sale', 'tier_not_on_sale', 'discount_not_applicable', 'admission_token_required', 'seat_hold_unavailable'],
    body: createPaymentIntentBody,
    response: paymentIntentResource,
    handler: async ({ body }, { services }) =>
      presentPaymentIntent(
        await services.paymentIntents.createPaymentIntent({
          amount: body.amount ?? 0,
          currency: body.currency ?? '',
          description: body.description ?? '',
          metadata: body.metadata ?? {},
          payment_method: body.payment_method ?? '',
          order: body.order && {
            event_id: body.order.event_id,
            items: body.order.items,
            customer: { email: body.order.customer.email, name: body.order.customer.name ?? '' },
            discount_code: body.order.discount_code ?? '',
            seat_hold_id: body.order.seat_hold_id ?? '',
          },
        }),
      ),
  }),
  defineRoute({
    operationId: 'getPaymentIntent',
    method: 'get',
    path: '/v1/payment_intents/{id}',
    summary: 'Retrieve a payment intent',
    tag: TAG,
    access,
    response: paymentIntentResource,
    handler: async ({ params }, { services }) => presentPaymentIntent(await services.paymentIntents.getPaymentIntent({ id: params.id })),
  }),
  defineRoute({
    operationId: 'confirmPaymentIntent',
    method: 'post',
    path: '/v1/payment_intents/{id}/confirm',
    summary: 'Confirm a payment intent: charge its payment method',
    tag: TAG,
    access,
    errors: ['payment_intent_unexpected_state', 'live_payments_unavailable'],
    body: confirmPaymentIntentBody,
    response: paymentIntentResource,
    handler: async ({ params, body }, { services }) =>
      presentPaymentIntent(await services.paymentIntents.confirmPaymentIntent({ id: params.id, payment_method: body.payment_method ?? '' })),
  }),
  defineRoute({
    operationId: 'cancelPaymentIntent',
    method: 'post',
    path: '/v1/payment_intents/{id}/cancel',
    summary: 'Cancel a payment intent; an order intent’s tickets are released',
    tag: TAG,
    access,
    errors: ['payment_intent_unexpected_state'],
    response: paymentIntentResource,
    handler: async ({ params }, { services }) => presentPaymentIntent(await services.paymentIntents.cancelPaymentIntent({ id: params.id })),
  }),
  defineRoute({
    operationId: 'createRefund',
    method: 'post',
    path: '/v1/refunds',
    summary: 'Give money back from a payment: all that is left, or part of it',
    tag: TAG,
    access,
    errors: ['resource_missing'],
    body: z
      .strictObject({
        payment: resourceId('pay').meta({ description: 'The payment to give money back from.' }),
        amount: wholeNumber(1, MAX_INTENT_AMOUNT).optional().meta({ description: 'Minor units, at most what is left of the payment; all that is left when left out.', example: 4500 }),
        reason: absentOrNull(upTo(500).meta({ example: 'Customer asked' })),
      })
      .meta({
        description: 'Refunding money alone leaves the tickets it paid for valid; to cancel a ticket and give its price back, refund the ticket (POST /v1/tickets/{id}/refund).',
        example: { payment: 'pay_01JD3WK8M0P2R4T6V8X0Z2B4D6', amount: 4500, reason: 'Customer asked' },
      }),
    response: refundResource,
    handler: async ({ body }, { services }) => presentRefund(await services.payments.refundPayment({ payment_id: body.payment, amount: body.amount ?? 0, reason: body.reason ?? '' })),
  }),
  defineRoute({
    operationId: 'getPayment',
    method: 'get',
    path: '/v1/payments/{id}',
    summary: 'Retrieve a payment',
    tag: TAG,
    access,
    response: paymentResource,
    handler: async ({ params }, { services }) => presentPayment(await services.payments.getPayment({ id: params.id })),
  }),
];
