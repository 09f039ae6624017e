import { z } from 'zod';
import type { catalogV1 } from '@ticketing/contracts';
import { resourceFields, timestamp } from './resource.schema';

export const eventResource = z
  .object({
    ...resourceFields('event'),
    name: z.string(),
    starts_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Event' });

export function presentEvent(event: catalogV1.Event): z.output<typeof eventResource> {
  return {
    id: event.id,
    object: 'event',
    livemode: event.livemode,
    name: event.name,
    starts_at: event.starts_at,
    created_at: event.created_at,
    updated_at: event.updated_at,
  };
}
