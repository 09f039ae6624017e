import { z } from 'zod';
import { ENDPOINT_DISABLED_REASONS, ENDPOINT_STATUSES, type webhooksV1 } from '@ticketing/contracts';
import { nullIfEmpty, oneOf } from './fields';
import { resourceFields, timestamp } from './resource.schema';

const EXAMPLE = {
  id: 'we_01JD3WG2K4M6P8R0T2V4X6Z8B0',
  object: 'webhook_endpoint',
  livemode: false,
  url: 'https://hooks.northside.example/ticketing',
  enabled_events: ['ticket.issued', 'event.published'],
  description: 'Order system',
  metadata: {},
  status: 'enabled',
  disabled_reason: null,
  previous_secret_expires_at: null,
  created_at: '2027-01-05T09:00:00.000Z',
  updated_at: '2027-01-05T09:00:00.000Z',
};

export const webhookEndpointResource = z
  .object({
    ...resourceFields('webhook_endpoint'),
    url: z.string().meta({ description: 'Where deliveries are POSTed.' }),
    enabled_events: z.array(z.string()).meta({ description: 'The event types delivered, or ["*"] for every type.' }),
    description: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    status: z.enum(ENDPOINT_STATUSES).meta({ description: 'Nothing is delivered to a disabled endpoint.' }),
    disabled_reason: z
      .enum(ENDPOINT_DISABLED_REASONS)
      .nullable()
      .meta({ description: 'Why it is disabled: by_request (PATCH disabled: true) or failing (every attempt failed for 5 days). null while enabled.' }),
    previous_secret_expires_at: timestamp.nullable().meta({ description: 'After a rotation, until when the previous secret still signs beside the new one; null otherwise.' }),
    updated_at: timestamp,
  })
  .meta({ id: 'WebhookEndpoint', example: EXAMPLE });

/** The answers that carry the signing secret: creating an endpoint and rotating its secret. No other answer shows it. */
export const webhookEndpointWithSecret = webhookEndpointResource
  .extend({
    secret: z.string().meta({
      description: 'The Standard Webhooks signing secret (whsec_…). Shown in this answer only: store it now to verify deliveries.',
      example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }),
  })
  .meta({ id: 'WebhookEndpointWithSecret', example: { ...EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } });

export function presentWebhookEndpoint(endpoint: webhooksV1.Endpoint): z.output<typeof webhookEndpointResource> {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint',
    livemode: endpoint.livemode,
    url: endpoint.url,
    enabled_events: endpoint.enabled_events,
    description: nullIfEmpty(endpoint.description),
    metadata: endpoint.metadata,
    status: oneOf(ENDPOINT_STATUSES, endpoint.status, 'webhook endpoint status'),
    disabled_reason: endpoint.disabled_reason === '' ? null : oneOf(ENDPOINT_DISABLED_REASONS, endpoint.disabled_reason, 'webhook endpoint disabled reason'),
    previous_secret_expires_at: nullIfEmpty(endpoint.previous_secret_expires_at),
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}

export function presentWebhookEndpointWithSecret(endpoint: webhooksV1.Endpoint): z.output<typeof webhookEndpointWithSecret> {
  return { ...presentWebhookEndpoint(endpoint), secret: endpoint.secret };
}
