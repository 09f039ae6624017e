import { plannedResource } from '../presenters/resource.schema';
import { defineRoute, publishableKey } from './route';

const TAG = 'Hosted checkout';
const session = plannedResource('checkout_session');

/** The browser-facing surface: publishable keys only, never secret ones. */
export const checkoutRoutes = [
  defineRoute({
    operationId: 'createCheckoutSession',
    method: 'post',
    path: '/v1/checkout/sessions',
    summary: 'Start a hosted checkout session',
    tag: TAG,
    access: publishableKey('checkout:write'),
    response: session,
  }),
  defineRoute({
    operationId: 'getCheckoutSession',
    method: 'get',
    path: '/v1/checkout/sessions/{id}',
    summary: 'Retrieve a checkout session',
    tag: TAG,
    access: publishableKey('checkout:read'),
    response: session,
  }),
  defineRoute({
    operationId: 'confirmCheckoutSession',
    method: 'post',
    path: '/v1/checkout/sessions/{id}/confirm',
    summary: 'Confirm a checkout session',
    tag: TAG,
    access: publishableKey('checkout:write'),
    response: session,
  }),
];
