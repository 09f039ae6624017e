import type { webhooksV1 } from '@ticketing/contracts';
import type { WebhookEndpoint } from '../domain/endpoint';

/**
 * An endpoint as the API shows it. `secret` is given only by the calls that create one (create,
 * rotate); a previous secret whose overlap has ended is no longer mentioned.
 */
export function toEndpointMessage(endpoint: WebhookEndpoint, secret = '', now = new Date()): webhooksV1.Endpoint {
  const previousExpiresAt = endpoint.previous_secret_expires_at;
  return {
    id: endpoint.id,
    livemode: endpoint.mode === 'live',
    url: endpoint.url,
    enabled_events: endpoint.enabled_events,
    description: endpoint.description ?? '',
    metadata: endpoint.metadata,
    status: endpoint.disabled_reason ? 'disabled' : 'enabled',
    disabled_reason: endpoint.disabled_reason ?? '',
    secret,
    previous_secret_expires_at: previousExpiresAt && previousExpiresAt > now ? previousExpiresAt.toISOString() : '',
    created_at: endpoint.created_at.toISOString(),
    updated_at: endpoint.updated_at.toISOString(),
  };
}
