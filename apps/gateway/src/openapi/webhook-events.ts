import { z } from 'zod';
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { PING_EVENT, WEBHOOK_PAYLOADS } from '@ticketing/contracts';
import { timestamp } from '../presenters/resource.schema';
import { WEBHOOK_SECURITY } from './security';

/** The Standard Webhooks headers every delivery carries. */
const deliveryHeaders = z.object({
  'webhook-id': z.string().meta({ description: 'The notification’s id, the same on every attempt and replay: deduplicate on it.', example: 'ntf_01JD3WH3M4N6Q8S0U2W4Y6A8C0' }),
  'webhook-timestamp': z.string().meta({ description: 'When this attempt was signed, in seconds since the Unix epoch: refuse old ones.', example: '1799053200' }),
  'webhook-signature': z.string().meta({
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` signatures of `<webhook-id>.<webhook-timestamp>.<body>` by the endpoint’s secret (two during a secret rotation). Verify with a Standard Webhooks library.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  }),
});

const ACKNOWLEDGED = 'Any 2xx answer within 5 seconds acknowledges the delivery. Anything else (another status, a redirect, a timeout) is retried: after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h.';

function describe(type: string): string {
  return type === PING_EVENT
    ? 'Sent by POST /v1/webhook_endpoints/{id}/ping to that endpoint only; never retried.'
    : `Sent to every enabled endpoint of the account and mode whose enabled_events lists \`${type}\` or "*".`;
}

/** The document's `webhooks`: one entry per type a delivery can carry, with its body and headers. */
export function webhookEvents(): RouteConfig[] {
  return Object.entries(WEBHOOK_PAYLOADS).map(([type, data]) => ({
    method: 'post',
    path: type,
    operationId: `${type.replace(/[._](\w)/g, (_match, letter: string) => letter.toUpperCase())}Webhook`,
    summary: `The ${type} notification`,
    description: describe(type),
    tags: ['Webhooks'],
    security: WEBHOOK_SECURITY,
    request: {
      headers: deliveryHeaders,
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.object({
              id: z.string().meta({ description: 'The notification’s id, also in `webhook-id`.' }),
              type: z.literal(type),
              created_at: timestamp.meta({ description: 'When the change happened.' }),
              livemode: z.boolean(),
              data,
            }),
          },
        },
      },
    },
    responses: { '200': { description: ACKNOWLEDGED } },
  }));
}
