import { deletedResource, listOf, plannedResource } from '../presenters/resource.schema';
import { listQuery } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Discounts';
const access = secretKey('events:write');
const discount = plannedResource('discount');
const trigger = plannedResource('discount_trigger');

export const discountsRoutes = [
  defineRoute({ operationId: 'listDiscounts', method: 'get', path: '/v1/discounts', summary: 'List discounts', tag: TAG, access, query: listQuery, response: listOf(discount) }),
  defineRoute({ operationId: 'createDiscount', method: 'post', path: '/v1/discounts', summary: 'Create a discount', tag: TAG, access, response: discount }),
  defineRoute({ operationId: 'getDiscount', method: 'get', path: '/v1/discounts/{id}', summary: 'Retrieve a discount', tag: TAG, access, response: discount }),
  defineRoute({ operationId: 'updateDiscount', method: 'patch', path: '/v1/discounts/{id}', summary: 'Update a discount', tag: TAG, access, response: discount }),
  defineRoute({
    operationId: 'deactivateDiscount',
    method: 'post',
    path: '/v1/discounts/{id}/deactivate',
    summary: 'Deactivate a discount',
    tag: TAG,
    access,
    response: discount,
  }),
  defineRoute({
    operationId: 'createDiscountTrigger',
    method: 'post',
    path: '/v1/discounts/{id}/triggers',
    summary: 'Add a trigger that applies the discount automatically',
    tag: TAG,
    access,
    response: trigger,
  }),
  defineRoute({
    operationId: 'listDiscountTriggers',
    method: 'get',
    path: '/v1/discounts/{id}/triggers',
    summary: "List a discount's triggers",
    tag: TAG,
    access,
    query: listQuery,
    response: listOf(trigger),
  }),
  defineRoute({
    operationId: 'deleteDiscountTrigger',
    method: 'delete',
    path: '/v1/discounts/{id}/triggers/{trigger_id}',
    summary: 'Delete a discount trigger',
    tag: TAG,
    access,
    response: deletedResource('discount_trigger'),
  }),
];
