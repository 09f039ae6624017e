import { CATALOG_DISCOUNT_TOPIC, CATALOG_EVENT_TOPIC, CATALOG_ORGANIZATION_TOPIC, TICKETING_TICKET_TOPIC, type TopicDefinition } from './events';

/** The topics whose events an account's webhook endpoints can receive (decision 0052). */
export const WEBHOOK_TOPICS: readonly TopicDefinition[] = [CATALOG_EVENT_TOPIC, CATALOG_ORGANIZATION_TOPIC, CATALOG_DISCOUNT_TOPIC, TICKETING_TICKET_TOPIC];

/** Recorded by the webhooks service itself when it disables an endpoint that kept failing. */
export const ENDPOINT_DISABLED_EVENT = 'endpoint.disabled';

/** Every event type an endpoint may subscribe to, besides "*" for all of them. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [...WEBHOOK_TOPICS.flatMap((topic) => Object.keys(topic.payloads)), ENDPOINT_DISABLED_EVENT];

/** In `enabled_events`, alone: every type, including types added later. */
export const ALL_WEBHOOK_EVENTS = '*';
