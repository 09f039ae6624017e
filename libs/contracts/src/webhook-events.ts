import { z } from 'zod';
import { CATALOG_DISCOUNT_TOPIC, CATALOG_EVENT_TOPIC, CATALOG_ORGANIZATION_TOPIC, PAYMENTS_CONNECT_ACCOUNT_TOPIC, PAYMENTS_PAYMENT_INTENT_TOPIC, PAYMENTS_PAYMENT_TOPIC, PAYMENTS_PAYOUT_TOPIC, TICKETING_TICKET_TOPIC, type TopicDefinition } from './events';

/** The topics whose events an account's webhook endpoints can receive (decision 0052). */
export const WEBHOOK_TOPICS: readonly TopicDefinition[] = [CATALOG_EVENT_TOPIC, CATALOG_ORGANIZATION_TOPIC, CATALOG_DISCOUNT_TOPIC, TICKETING_TICKET_TOPIC, PAYMENTS_PAYMENT_INTENT_TOPIC, PAYMENTS_PAYMENT_TOPIC, PAYMENTS_PAYOUT_TOPIC, PAYMENTS_CONNECT_ACCOUNT_TOPIC];

/** Recorded by the webhooks service itself when it disables an endpoint that kept failing. */
export const ENDPOINT_DISABLED_EVENT = 'endpoint.disabled';

/** What `POST /v1/webhook_endpoints/{id}/ping` sends; no endpoint subscribes to it. */
export const PING_EVENT = 'ping';

/** The notifications of the webhooks service's own, with the schemas of their `data`. */
const OWN_PAYLOADS = {
  [ENDPOINT_DISABLED_EVENT]: z.object({ endpoint_id: z.string(), url: z.string(), reason: z.literal('failing') }),
  [PING_EVENT]: z.object({ endpoint_id: z.string() }),
};

/** Every type a delivery can carry, with the schema of its `data`: the single source of the document's `webhooks`. */
export const WEBHOOK_PAYLOADS: Readonly<Record<string, z.ZodType>> = Object.assign({}, ...WEBHOOK_TOPICS.map((topic) => topic.payloads), OWN_PAYLOADS);

/** Every event type an endpoint may subscribe to, besides "*" for all of them. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = Object.keys(WEBHOOK_PAYLOADS).filter((type) => type !== PING_EVENT);

/** In `enabled_events`, alone: every type, including types added later. */
export const ALL_WEBHOOK_EVENTS = '*';
