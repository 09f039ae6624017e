import { listOf, plannedResource } from '../presenters/resource.schema';
import { listQuery } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Customers';
const access = secretKey('customers:write');
const customer = plannedResource('customer');

export const customersRoutes = [
  defineRoute({ operationId: 'createCustomer', method: 'post', path: '/v1/customers', summary: 'Create a customer', tag: TAG, access, response: customer }),
  defineRoute({ operationId: 'getCustomer', method: 'get', path: '/v1/customers/{id}', summary: 'Retrieve a customer', tag: TAG, access, response: customer }),
  defineRoute({
    operationId: 'listSegmentCustomers',
    method: 'get',
    path: '/v1/customers/segments/{kind}',
    summary: 'List the customers of a built-in segment',
    tag: TAG,
    access,
    query: listQuery,
    response: listOf(customer),
  }),
];
