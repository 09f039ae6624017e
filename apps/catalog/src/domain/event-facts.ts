import type { CatalogEventFacts } from '@ticketing/contracts';
import type { CatalogEvent } from './event';

/** What other services learn about an event when it changes. */
export function toEventFacts(event: CatalogEvent): CatalogEventFacts {
  return { event_id: event.id, name: event.name, starts_at: event.starts_at.toISOString() };
}
