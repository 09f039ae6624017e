import { z } from 'zod';
import { EVENT_STATUSES, type catalogV1, type EventStatus } from '@ticketing/contracts';
import { nullIfEmpty, nullIfZero } from './fields';
import { resourceFields, timestamp } from './resource.schema';
import { presentTier, tierResource } from './tier.presenter';

export const venueSchema = z
  .object({
    name: z.string().meta({ example: 'Paradiso' }),
    address: z.string().nullable().meta({ example: 'Weteringschans 6-8' }),
    city: z.string().nullable().meta({ example: 'Amsterdam' }),
    country: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2.', example: 'NL' }),
    timezone: z.string().nullable().meta({ description: 'IANA time zone of the venue.', example: 'Europe/Amsterdam' }),
  })
  .meta({ id: 'Venue' });

export const waitingRoomSchema = z
  .object({
    enabled: z.boolean().meta({ description: 'While enabled, buyers queue and are admitted at the rate below.' }),
    admission_rate_per_minute: z.number().int().nullable().meta({ example: 300 }),
  })
  .meta({ id: 'WaitingRoom' });

/** Also the event inside a similar event's example, so both stay whole. */
const eventExample = {
  id: 'evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST',
  object: 'event',
  livemode: false,
  name: 'Harbour Lights',
  description: 'An evening of jazz on the water.',
  organization_id: 'org_01JD3W7Q2M9S4T6V8X0Z2B4D6F',
  venue: { name: 'Paradiso', address: 'Weteringschans 6-8', city: 'Amsterdam', country: 'NL', timezone: 'Europe/Amsterdam' },
  starts_at: '2027-07-01T18:00:00.000Z',
  ends_at: '2027-07-01T22:00:00.000Z',
  category: 'music',
  tags: ['jazz', 'outdoor'],
  currency: 'EUR',
  status: 'published',
  waiting_room: { enabled: true, admission_rate_per_minute: 300 },
  tiers: [],
  has_seatmap: false,
  created_at: '2027-01-10T09:00:00.000Z',
  updated_at: '2027-01-12T14:30:00.000Z',
};

export const eventResource = z
  .object({
    ...resourceFields('event'),
    name: z.string().meta({ example: 'Harbour Lights' }),
    description: z.string().nullable(),
    organization_id: z.string().nullable().meta({ example: 'org_01JD3W7Q2M9S4T6V8X0Z2B4D6F' }),
    venue: venueSchema.nullable(),
    starts_at: timestamp,
    ends_at: timestamp.nullable(),
    category: z.string().nullable().meta({ description: 'Lower case.', example: 'music' }),
    tags: z.array(z.string()).meta({ description: 'Lower case, unique.', example: ['jazz', 'outdoor'] }),
    currency: z.string().meta({ description: 'ISO 4217; every tier is priced in it.', example: 'EUR' }),
    status: z.enum(EVENT_STATUSES).meta({ description: 'draft → published → canceled | completed, or draft → canceled; canceled and completed are final.' }),
    waiting_room: waitingRoomSchema,
    tiers: z.array(tierResource).meta({ description: 'The event’s tiers, by rank then creation.' }),
    has_seatmap: z.boolean().meta({ description: 'Whether GET /v1/events/{id}/seatmap has a layout to show.' }),
    updated_at: timestamp,
  })
  .meta({ id: 'Event', example: eventExample });

function eventStatus(value: string): EventStatus {
  const status = EVENT_STATUSES.find((known) => known === value);
  if (!status) throw new Error(`catalog answered an unknown event status '${value}'`);
  return status;
}

export function presentEvent(event: catalogV1.Event): z.output<typeof eventResource> {
  const { venue, waiting_room } = event;
  return {
    id: event.id,
    object: 'event',
    livemode: event.livemode,
    name: event.name,
    description: nullIfEmpty(event.description),
    organization_id: nullIfEmpty(event.organization_id),
    venue: venue
      ? { name: venue.name, address: nullIfEmpty(venue.address), city: nullIfEmpty(venue.city), country: nullIfEmpty(venue.country), timezone: nullIfEmpty(venue.timezone) }
      : null,
    starts_at: event.starts_at,
    ends_at: nullIfEmpty(event.ends_at),
    category: nullIfEmpty(event.category),
    tags: event.tags,
    currency: event.currency,
    status: eventStatus(event.status),
    waiting_room: { enabled: waiting_room?.enabled ?? false, admission_rate_per_minute: nullIfZero(waiting_room?.admission_rate_per_minute ?? 0) },
    tiers: event.tiers.map(presentTier),
    has_seatmap: event.has_seatmap,
    created_at: event.created_at,
    updated_at: event.updated_at,
  };
}

export const similarEventResource = z
  .object({
    id: z.string().meta({ description: 'The similar event’s id (the cursor for starting_after).' }),
    object: z.literal('similar_event'),
    score: z.number().meta({ description: 'Higher is more alike; see the decision record on similar events for the weights.', example: 7.35 }),
    reasons: z.array(z.string()).meta({ description: 'What the events share.', example: ['same_organization', 'same_city', 'close_in_date'] }),
    event: eventResource,
  })
  .meta({
    id: 'SimilarEvent',
    example: {
      id: 'evt_01JD3XA1B3C5D7E9F1G3H5J7K9',
      object: 'similar_event',
      score: 7.35,
      reasons: ['same_organization', 'same_city', 'close_in_date'],
      event: { ...eventExample, id: 'evt_01JD3XA1B3C5D7E9F1G3H5J7K9', name: 'Harbour Lights II', starts_at: '2027-07-08T18:00:00.000Z', ends_at: '2027-07-08T22:00:00.000Z' },
    },
  });

export function presentSimilarEvent(similar: catalogV1.SimilarEvent): z.output<typeof similarEventResource> {
  if (!similar.event) throw new Error('catalog answered a similar event without the event');
  return { id: similar.event.id, object: 'similar_event', score: similar.score, reasons: similar.reasons, event: presentEvent(similar.event) };
}
