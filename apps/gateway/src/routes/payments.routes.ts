import { z } from 'zod';
import { MAX_INTENT_AMOUNT } from '@ticketing/contracts';
import { paymentIntentResource, paymentResource, presentPayment, presentPaymentIntent } from '../presenters/payment.presenter';
import { absentOrNull, currency, metadata, text, upTo, wholeNumber } from '../validation/fields';
import { defineRoute, secretKey } from './route';

const TAG = 'Payments';
const access = secretKey('payments:write');

const paymentMethod = text(255).meta({
  description:
    'What to charge. In test mode, one of the sandbox’s test methods: pm_card_visa and pm_card_mastercard succeed, pm_card_chargeDeclined and pm_card_chargeDeclinedInsufficientFunds are declined, pm_card_authenticationRequired asks the buyer to authenticate, and pm_card_chargeDeclinedAfterDelay stays processing for a while, then fails.',
  example: 'pm_card_visa',
});

const createPaymentIntentBody = z
  .strictObject({
    amount: wholeNumber(1, MAX_INTENT_AMOUNT).meta({ description: 'Minor units of currency, e.g. 4500 for €45.00.', example: 9000 }),
    currency,
    description: absentOrNull(upTo(1000).meta({ example: 'Order 8812' })),
    metadata: metadata.optional(),
    payment_method: absentOrNull(paymentMethod).meta({ description: 'Given now, the intent awaits only its confirmation.' }),
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
    errors: ['live_payments_unavailable'],
    body: createPaymentIntentBody,
    response: paymentIntentResource,
    handler: async ({ body }, { services }) =>
      presentPaymentIntent(
        await services.paymentIntents.createPaymentIntent({
          amount: body.amount,
          currency: body.currency,
          description: body.description ?? '',
          metadata: body.metadata ?? {},
          payment_method: body.payment_method ?? '',
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
