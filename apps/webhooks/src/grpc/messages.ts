import type { webhooksV1 } from '@ticketing/contracts';
import type { LoggedDelivery } from '../domain/delivery';
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

export function toDeliveryMessage(delivery: LoggedDelivery): webhooksV1.Delivery {
  return {
    id: delivery.id,
    livemode: delivery.mode === 'live',
    endpoint_id: delivery.endpoint_id,
    notification_id: delivery.notification_id,
    type: delivery.type,
    status: delivery.status,
    attempt_count: delivery.attempt_count,
    next_attempt_at: delivery.next_attempt_at?.toISOString() ?? '',
    last_attempt_at: delivery.last_attempt_at?.toISOString() ?? '',
    created_at: delivery.created_at.toISOString(),
    attempts: delivery.attempts.map((attempt) => ({
      attempted_at: attempt.attempted_at.toISOString(),
      http_status: attempt.http_status ?? 0,
      latency_ms: attempt.latency_ms,
      succeeded: attempt.succeeded,
      error: attempt.error ?? '',
      response_body: attempt.response_body ?? '',
    })),
  };
}
