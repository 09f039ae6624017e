import { z } from 'zod';
import { DELIVERY_STATUSES, type webhooksV1 } from '@ticketing/contracts';
import { nullIfEmpty, nullIfZero, oneOf } from './fields';
import { resourceFields, timestamp } from './resource.schema';

const attemptResource = z
  .object({
    attempted_at: timestamp,
    http_status: z.number().int().nullable().meta({ description: 'The endpoint’s answer; null when none came (timeout, refused or forbidden connection).' }),
    latency_ms: z.number().int(),
    succeeded: z.boolean().meta({ description: 'true for a 2xx answer within the timeout (5 seconds by default).' }),
    error: z.string().nullable().meta({ description: 'Why the attempt failed; null on success.' }),
    response_body: z.string().nullable().meta({ description: 'The first kilobyte of the answer; null when none came.' }),
  })
  .meta({ id: 'WebhookAttempt' });

export const webhookDeliveryResource = z
  .object({
    ...resourceFields('webhook_delivery'),
    endpoint_id: z.string(),
    notification_id: z.string().meta({ description: 'The id of the notification delivered: the body’s `id` and the `webhook-id` header, the same on every attempt.' }),
    type: z.string().meta({ example: 'ticket.issued' }),
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        'pending: an attempt is due or scheduled; succeeded; failed: every attempt of the retry schedule (about a day) failed; canceled: its endpoint was deleted or disabled first.',
    }),
    attempt_count: z.number().int(),
    next_attempt_at: timestamp.nullable().meta({ description: 'When the next scheduled attempt is due; null unless pending.' }),
    last_attempt_at: timestamp.nullable(),
    attempts: z.array(attemptResource).meta({ description: 'Every attempt, oldest first, replays included.' }),
  })
  .meta({
    id: 'WebhookDelivery',
    example: {
      id: 'dlv_01JD3WH3M5P7R9T1V3X5Z7B9D1',
      object: 'webhook_delivery',
      livemode: false,
      endpoint_id: 'we_01JD3WG2K4M6P8R0T2V4X6Z8B0',
      notification_id: 'ntf_01JD3WH3M4N6Q8S0U2W4Y6A8C0',
      type: 'ticket.issued',
      status: 'succeeded',
      attempt_count: 2,
      next_attempt_at: null,
      last_attempt_at: '2027-01-05T09:00:05.312Z',
      created_at: '2027-01-05T09:00:00.000Z',
      attempts: [
        { attempted_at: '2027-01-05T09:00:00.040Z', http_status: 503, latency_ms: 38, succeeded: false, error: 'the endpoint answered 503', response_body: 'busy' },
        { attempted_at: '2027-01-05T09:00:05.312Z', http_status: 200, latency_ms: 21, succeeded: true, error: null, response_body: '' },
      ],
    },
  });

export function presentWebhookDelivery(delivery: webhooksV1.Delivery): z.output<typeof webhookDeliveryResource> {
  return {
    id: delivery.id,
    object: 'webhook_delivery',
    livemode: delivery.livemode,
    endpoint_id: delivery.endpoint_id,
    notification_id: delivery.notification_id,
    type: delivery.type,
    status: oneOf(DELIVERY_STATUSES, delivery.status, 'webhook delivery status'),
    attempt_count: delivery.attempt_count,
    next_attempt_at: nullIfEmpty(delivery.next_attempt_at),
    last_attempt_at: nullIfEmpty(delivery.last_attempt_at),
    created_at: delivery.created_at,
    attempts: delivery.attempts.map((attempt) => ({
      attempted_at: attempt.attempted_at,
      http_status: nullIfZero(attempt.http_status),
      latency_ms: attempt.latency_ms,
      succeeded: attempt.succeeded,
      error: nullIfEmpty(attempt.error),
      response_body: attempt.http_status === 0 ? null : attempt.response_body,
    })),
  };
}
