import { plannedResource } from '../presenters/resource.schema';
import { defineRoute, secretKey } from './route';

const TAG = 'Payments';
const access = secretKey('payments:write');
const paymentIntent = plannedResource('payment_intent');

export const paymentsRoutes = [
  defineRoute({ operationId: 'createPaymentIntent', method: 'post', path: '/v1/payment_intents', summary: 'Create a payment intent', tag: TAG, access, response: paymentIntent }),
  defineRoute({
    operationId: 'confirmPaymentIntent',
    method: 'post',
    path: '/v1/payment_intents/{id}/confirm',
    summary: 'Confirm a payment intent',
    tag: TAG,
    access,
    response: paymentIntent,
  }),
  defineRoute({
    operationId: 'getPayment',
    method: 'get',
    path: '/v1/payments/{id}',
    summary: 'Retrieve a payment this key created',
    tag: TAG,
    access,
    response: plannedResource('payment'),
  }),
];
