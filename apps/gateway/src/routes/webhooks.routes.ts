import { z } from 'zod';
import { ALL_WEBHOOK_EVENTS, DELIVERY_STATUSES, PING_EVENT, WEBHOOK_EVENT_TYPES } from '@ticketing/contracts';
import { toListEnvelope } from '@ticketing/pagination';
import { deletedResource, listOf } from '../presenters/resource.schema';
import { presentWebhookDelivery, webhookDeliveryResource } from '../presenters/webhook-delivery.presenter';
import { presentWebhookEndpoint, presentWebhookEndpointWithSecret, webhookEndpointResource, webhookEndpointWithSecret } from '../presenters/webhook-endpoint.presenter';
import { absentOrNull, clearableText, cleared, metadata, patchBody, resourceId, upTo } from '../validation/fields';
import { listQuery, pageRequest } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Webhooks';
const access = secretKey('webhooks:manage');

const endpointUrl = z
  .url({ protocol: /^https?$/, error: 'must be an https URL such as https://hooks.example.com/ticketing (http only in test mode)' })
  .max(2048)
  .meta({
    description: 'Where deliveries are POSTed: https in live mode. Deliveries go only to public addresses, checked again at every send; redirects are not followed.',
    example: 'https://hooks.northside.example/ticketing',
  });

const enabledEvents = z
  .array(z.enum([ALL_WEBHOOK_EVENTS, ...WEBHOOK_EVENT_TYPES]))
  .min(1)
  .max(100)
  .meta({ description: 'The event types to deliver, or ["*"] alone for every type, including types added later.', example: ['ticket.issued', 'event.published'] });

const description = upTo(5000).meta({ example: 'Order system' });

const createEndpointBody = z
  .strictObject({
    url: endpointUrl,
    enabled_events: enabledEvents,
    description: absentOrNull(description),
    metadata: metadata.optional(),
  })
  .meta({ example: { url: 'https://hooks.northside.example/ticketing', enabled_events: ['ticket.issued', 'event.published'], description: 'Order system' } });

const updateEndpointBody = patchBody({
  url: endpointUrl.optional(),
  enabled_events: enabledEvents.optional(),
  description: clearableText(5000).optional(),
  metadata: metadata.optional().meta({ description: 'Replaces the whole map; {} removes every key.' }),
  disabled: z.boolean().optional().meta({ description: 'true stops deliveries to the endpoint; false starts them again.' }),
}).meta({ example: { enabled_events: ['*'], disabled: false } });

const listDeliveriesQuery = listQuery.extend({
  endpoint_id: resourceId('we').optional().meta({ description: 'Only deliveries to this endpoint.' }),
  status: z.enum(DELIVERY_STATUSES).optional().meta({ description: 'Only deliveries in this state.' }),
  type: z.enum([...WEBHOOK_EVENT_TYPES, PING_EVENT]).optional().meta({ description: 'Only deliveries of this event type.', example: 'ticket.issued' }),
});

export const webhooksRoutes = [
  defineRoute({
    operationId: 'listWebhookEndpoints',
    method: 'get',
    path: '/v1/webhook_endpoints',
    summary: 'List webhook endpoints, newest first',
    tag: TAG,
    access,
    query: listQuery,
    response: listOf(webhookEndpointResource),
    handler: async ({ query }, { services }) => toListEnvelope(await services.webhookEndpoints.listEndpoints({ page: pageRequest(query) }), presentWebhookEndpoint),
  }),
  defineRoute({
    operationId: 'createWebhookEndpoint',
    method: 'post',
    path: '/v1/webhook_endpoints',
    summary: 'Create a webhook endpoint (at most 16 in each mode); the answer shows its signing secret, once',
    tag: TAG,
    access,
    errors: ['endpoint_limit_reached'],
    body: createEndpointBody,
    response: webhookEndpointWithSecret,
    handler: async ({ body }, { services }) =>
      presentWebhookEndpointWithSecret(
        await services.webhookEndpoints.createEndpoint({
          url: body.url,
          enabled_events: body.enabled_events,
          description: body.description ?? '',
          metadata: body.metadata ?? {},
        }),
      ),
  }),
  defineRoute({
    operationId: 'getWebhookEndpoint',
    method: 'get',
    path: '/v1/webhook_endpoints/{id}',
    summary: 'Retrieve a webhook endpoint',
    tag: TAG,
    access,
    response: webhookEndpointResource,
    handler: async ({ params }, { services }) => presentWebhookEndpoint(await services.webhookEndpoints.getEndpoint({ id: params.id })),
  }),
  defineRoute({
    operationId: 'updateWebhookEndpoint',
    method: 'patch',
    path: '/v1/webhook_endpoints/{id}',
    summary: 'Update a webhook endpoint; only the fields sent change, null clears the description',
    tag: TAG,
    access,
    body: updateEndpointBody,
    response: webhookEndpointResource,
    handler: async ({ params, body }, { services }) =>
      presentWebhookEndpoint(
        await services.webhookEndpoints.updateEndpoint({
          id: params.id,
          url: body.url,
          enabled_events: body.enabled_events ?? [],
          enabled_events_set: body.enabled_events !== undefined,
          description: cleared(body.description),
          metadata: body.metadata ?? {},
          metadata_set: body.metadata !== undefined,
          disabled: body.disabled,
        }),
      ),
  }),
  defineRoute({
    operationId: 'deleteWebhookEndpoint',
    method: 'delete',
    path: '/v1/webhook_endpoints/{id}',
    summary: 'Delete a webhook endpoint; nothing more is delivered to it',
    tag: TAG,
    access,
    response: deletedResource('webhook_endpoint').meta({ example: { id: 'we_01JD3WG2K4M6P8R0T2V4X6Z8B0', object: 'webhook_endpoint', deleted: true } }),
    handler: async ({ params }, { services }) => {
      const deleted = await services.webhookEndpoints.deleteEndpoint({ id: params.id });
      return { id: deleted.id, object: 'webhook_endpoint' as const, deleted: true as const };
    },
  }),
  defineRoute({
    operationId: 'rotateWebhookEndpointSecret',
    method: 'post',
    path: '/v1/webhook_endpoints/{id}/rotate_secret',
    summary: 'Give a webhook endpoint a new signing secret; the previous one keeps signing beside it for 24 hours',
    tag: TAG,
    access,
    response: webhookEndpointWithSecret,
    handler: async ({ params }, { services }) => presentWebhookEndpointWithSecret(await services.webhookEndpoints.rotateEndpointSecret({ id: params.id })),
  }),
  defineRoute({
    operationId: 'pingWebhookEndpoint',
    method: 'post',
    path: '/v1/webhook_endpoints/{id}/ping',
    summary: 'Send a ping notification to a webhook endpoint now; answers its delivery with the attempt’s outcome',
    tag: TAG,
    access,
    response: webhookDeliveryResource,
    handler: async ({ params }, { services }) => presentWebhookDelivery(await services.webhookDeliveries.pingEndpoint({ endpoint_id: params.id })),
  }),
  defineRoute({
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/v1/events/deliveries',
    summary: 'List webhook deliveries with their attempts, newest first',
    tag: TAG,
    access,
    query: listDeliveriesQuery,
    response: listOf(webhookDeliveryResource),
    handler: async ({ query }, { services }) =>
      toListEnvelope(
        await services.webhookDeliveries.listDeliveries({
          page: pageRequest(query),
          endpoint_id: query.endpoint_id ?? '',
          status: query.status ?? '',
          type: query.type ?? '',
        }),
        presentWebhookDelivery,
      ),
  }),
  defineRoute({
    operationId: 'replayWebhookDelivery',
    method: 'post',
    path: '/v1/events/deliveries/{id}/replay',
    summary: 'Send a webhook delivery again now, as a new attempt; answers the delivery with it',
    tag: TAG,
    access,
    errors: ['endpoint_deleted'],
    response: webhookDeliveryResource,
    handler: async ({ params }, { services }) => presentWebhookDelivery(await services.webhookDeliveries.replayDelivery({ id: params.id })),
  }),
];
