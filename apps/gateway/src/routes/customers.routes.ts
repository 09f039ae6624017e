import { z } from 'zod';
import { customerResource, presentCustomer } from '../presenters/customer.presenter';
import { listOf, plannedResource } from '../presenters/resource.schema';
import { absentOrNull, emailAddress, text } from '../validation/fields';
import { listQuery } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Customers';
const access = secretKey('customers:write');
const segmentCustomer = plannedResource('customer');

/** An email address as customers are found by: lower-cased by ticketing. */
const customerEmail = emailAddress.meta({ example: 'ann@example.com' });

export const newCustomer = z
  .strictObject({ email: customerEmail, name: absentOrNull(text(200)).meta({ example: 'Ann Lee' }) })
  .meta({ example: { email: 'ann@example.com', name: 'Ann Lee' } });

export const customersRoutes = [
  defineRoute({
    operationId: 'createCustomer',
    method: 'post',
    path: '/v1/customers',
    summary: 'Create a customer; issuing tickets to an email also finds or creates one',
    tag: TAG,
    access,
    errors: ['customer_exists'],
    body: newCustomer,
    response: customerResource,
    handler: async ({ body }, { services }) => presentCustomer(await services.customers.createCustomer({ email: body.email, name: body.name ?? '' })),
  }),
  defineRoute({
    operationId: 'getCustomer',
    method: 'get',
    path: '/v1/customers/{id}',
    summary: 'Retrieve a customer',
    tag: TAG,
    access,
    response: customerResource,
    handler: async ({ params }, { services }) => presentCustomer(await services.customers.getCustomer({ id: params.id })),
  }),
  defineRoute({
    operationId: 'listSegmentCustomers',
    method: 'get',
    path: '/v1/customers/segments/{kind}',
    summary: 'List the customers of a built-in segment',
    tag: TAG,
    access,
    query: listQuery,
    response: listOf(segmentCustomer),
  }),
];
