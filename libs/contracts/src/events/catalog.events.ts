import type { TopicDefinition } from './envelope';

/** Facts about an event (the thing tickets are sold for) that other services keep. */
export interface CatalogEventFacts {
  event_id: string;
  name: string;
  starts_at: string;
}

export interface CatalogEventPayloads extends Record<string, unknown> {
  'event.created': CatalogEventFacts;
  'event.updated': CatalogEventFacts;
}

export const CATALOG_EVENT_TOPIC: TopicDefinition<CatalogEventPayloads> = {
  name: 'catalog.event.v1',
  types: ['event.created', 'event.updated'],
};
