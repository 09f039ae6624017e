import { deletedResource, listOf, plannedObject, plannedResource } from '../presenters/resource.schema';
import { listQuery } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Webhooks';
const access = secretKey('webhooks:manage');
const endpoint = plannedResource('webhook_endpoint');
const delivery = plannedResource('webhook_delivery');

export const webhooksRoutes = [
  defineRoute({
    operationId: 'listWebhookEndpoints',
    method: 'get',
    path: '/v1/webhook_endpoints',
    summary: 'List webhook endpoints',
    tag: TAG,
    access,
    query: listQuery,
    response: listOf(endpoint),
  }),
  defineRoute({ operationId: 'createWebhookEndpoint', method: 'post', path: '/v1/webhook_endpoints', summary: 'Create a webhook endpoint', tag: TAG, access, response: endpoint }),
  defineRoute({ operationId: 'getWebhookEndpoint', method: 'get', path: '/v1/webhook_endpoints/{id}', summary: 'Retrieve a webhook endpoint', tag: TAG, access, response: endpoint }),
  defineRoute({ operationId: 'updateWebhookEndpoint', method: 'patch', path: '/v1/webhook_endpoints/{id}', summary: 'Update a webhook endpoint', tag: TAG, access, response: endpoint }),
  defineRoute({
    operationId: 'deleteWebhookEndpoint',
    method: 'delete',
    path: '/v1/webhook_endpoints/{id}',
    summary: 'Delete a webhook endpoint',
    tag: TAG,
    access,
    response: deletedResource('webhook_endpoint'),
  }),
  defineRoute({
    operationId: 'pingWebhookEndpoint',
    method: 'post',
    path: '/v1/webhook_endpoints/{id}/ping',
    summary: 'Send a test notification to a webhook endpoint',
    tag: TAG,
    access,
    response: plannedObject('webhook_ping'),
  }),
  defineRoute({
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/v1/events/deliveries',
    summary: 'List webhook deliveries',
    tag: TAG,
    access,
    query: listQuery,
    response: listOf(delivery),
  }),
  defineRoute({
    operationId: 'replayWebhookDelivery',
    method: 'post',
    path: '/v1/events/deliveries/{id}/replay',
    summary: 'Deliver a webhook notification again',
    tag: TAG,
    access,
    response: delivery,
  }),
];
