import { z } from 'zod';
import { toListEnvelope } from '@ticketing/pagination';
import { EVENT_STATUSES, isCountryCode } from '@ticketing/contracts';
import { eventResource, presentEvent, presentSimilarEvent, similarEventResource } from '../presenters/event.presenter';
import { listOf } from '../presenters/resource.schema';
import { presentSeatMap, seatMapResource } from '../presenters/seat-map.presenter';
import { absentOrNull, anyId, cleared, clearableText, currency, dateTime, patchBody, resourceId, text, upTo, wholeNumber } from '../validation/fields';
import { listQuery, pageRequest } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Events';

const venueBody = z
  .strictObject({
    name: text(200).meta({ example: 'Paradiso' }),
    address: absentOrNull(text(500)).meta({ example: 'Weteringschans 6-8' }),
    city: absentOrNull(text(100)).meta({ example: 'Amsterdam' }),
    country: absentOrNull(z.string().refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code such as NL')).meta({
      description: 'ISO 3166-1 alpha-2 country code (or XK), in any letter case; stored upper case.',
      example: 'NL',
    }),
    timezone: absentOrNull(z.string().min(1).max(64)).meta({ description: 'IANA time zone.', example: 'Europe/Amsterdam' }),
  })
  .meta({ description: 'Where the event takes place. A field left out or null is not given (the whole venue is replaced on PATCH).' });

const waitingRoomBody = z
  .strictObject({
    enabled: z.boolean(),
    admission_rate_per_minute: absentOrNull(wholeNumber(1, 1_000_000)).meta({
      description: 'Required to enable a room that has no rate yet. Left out of an update (or null), the current rate stays, so a paused room resumes at it.',
      example: 300,
    }),
  })
  .meta({ description: 'Queue buyers during an on-sale and admit them at this rate.' });

const tags = z.array(text(50)).max(20, 'holds at most 20 tags').meta({ example: ['jazz', 'outdoor'] });
const category = text(50).meta({ example: 'music' });
const description = upTo(5000);

const createEventBody = z.strictObject({
  name: text(200).meta({ example: 'Harbour Lights' }),
  starts_at: dateTime,
  ends_at: absentOrNull(dateTime),
  description: absentOrNull(description),
  organization_id: absentOrNull(resourceId('org')),
  venue: absentOrNull(venueBody),
  category: absentOrNull(category),
  tags: tags.optional(),
  currency: currency.optional().meta({ description: 'ISO 4217; defaults to USD. Every tier is priced in it.' }),
  waiting_room: waitingRoomBody.optional(),
}).meta({
  example: {
    name: 'Harbour Lights',
    starts_at: '2027-07-01T20:00:00+02:00',
    ends_at: '2027-07-02T00:00:00+02:00',
    organization_id: 'org_01JD3W7Q2M9S4T6V8X0Z2B4D6F',
    venue: { name: 'Paradiso', address: 'Weteringschans 6-8', city: 'Amsterdam', country: 'NL', timezone: 'Europe/Amsterdam' },
    category: 'music',
    tags: ['jazz', 'outdoor'],
    currency: 'EUR',
    waiting_room: { enabled: true, admission_rate_per_minute: 300 },
  },
});

const updateEventBody = patchBody({
  name: text(200).optional(),
  starts_at: dateTime.optional(),
  ends_at: dateTime.nullable().optional(),
  description: clearableText(5000).optional(),
  organization_id: resourceId('org').nullable().optional(),
  venue: venueBody.nullable().optional(),
  category: category.nullable().optional(),
  tags: tags.optional(),
  currency: currency.optional().meta({ description: 'Only while the event has no tiers.' }),
  status: z
    .enum(EVENT_STATUSES, { error: `must be one of ${EVENT_STATUSES.join(', ')}` })
    .optional()
    .meta({ description: 'draft → published → canceled | completed, or draft → canceled. Canceling publishes event.canceled, which cancels the event’s valid tickets.' }),
  waiting_room: waitingRoomBody.optional(),
}).meta({ example: { status: 'published', description: null } });

const listEventsQuery = listQuery.extend({
  status: z.enum(EVENT_STATUSES, { error: `must be one of ${EVENT_STATUSES.join(', ')}` }).optional(),
  organization_id: anyId.optional(),
  starts_after: dateTime.optional().meta({ description: 'Only events starting after this instant.' }),
  starts_before: dateTime.optional().meta({ description: 'Only events starting before this instant.' }),
  q: text(200).optional().meta({ description: 'Case-insensitive part of the name.', example: 'harbour' }),
});

const seatMapBody = z.strictObject({
  sections: z
    .array(
      z.strictObject({
        label: text(20).meta({ example: 'Stalls' }),
        rows: z.array(
          z.strictObject({
            label: text(20).meta({ example: 'A' }),
            seats: z.array(z.strictObject({ label: text(20).meta({ example: '12' }), tier_id: resourceId('tier') })),
          }),
        ),
      }),
    )
    .meta({ description: 'The whole layout; it replaces the previous one. Labels cannot contain ":".' }),
}).meta({
  example: {
    sections: [{ label: 'Stalls', rows: [{ label: 'A', seats: [{ label: '1', tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3' }, { label: '2', tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3' }] }] }],
  },
});

const venueMessage = (venue: z.output<typeof venueBody> | null) => ({
  name: venue?.name ?? '',
  address: venue?.address ?? '',
  city: venue?.city ?? '',
  country: venue?.country ?? '',
  timezone: venue?.timezone ?? '',
});

const waitingRoomMessage = (room: z.output<typeof waitingRoomBody>) => ({ enabled: room.enabled, admission_rate_per_minute: room.admission_rate_per_minute ?? 0 });


export const eventsRoutes = [
  defineRoute({
    operationId: 'listEvents',
    method: 'get',
    path: '/v1/events',
    summary: 'List events, newest first; filters combine with each other and the page',
    tag: TAG,
    access: secretKey('events:read'),
    query: listEventsQuery,
    response: listOf(eventResource),
    handler: async ({ query }, { services }) =>
      toListEnvelope(
        await services.events.listEvents({
          page: pageRequest(query),
          status: query.status ?? '',
          organization_id: query.organization_id ?? '',
          starts_after: query.starts_after ?? '',
          starts_before: query.starts_before ?? '',
          q: query.q ?? '',
        }),
        presentEvent,
      ),
  }),
  defineRoute({
    operationId: 'createEvent',
    method: 'post',
    path: '/v1/events',
    summary: 'Create an event (as a draft)',
    tag: TAG,
    access: secretKey('events:write'),
    errors: ['resource_missing'],
    body: createEventBody,
    response: eventResource,
    handler: async ({ body }, { services }) =>
      presentEvent(
        await services.events.createEvent({
          name: body.name,
          starts_at: body.starts_at,
          ends_at: body.ends_at ?? '',
          description: body.description ?? '',
          organization_id: body.organization_id ?? '',
          venue: body.venue && venueMessage(body.venue),
          category: body.category ?? '',
          tags: body.tags ?? [],
          currency: body.currency ?? '',
          waiting_room: body.waiting_room && waitingRoomMessage(body.waiting_room),
        }),
      ),
  }),
  defineRoute({
    operationId: 'getEvent',
    method: 'get',
    path: '/v1/events/{id}',
    summary: 'Retrieve an event with its tiers',
    tag: TAG,
    access: secretKey('events:read'),
    response: eventResource,
    handler: async ({ params }, { services }) => presentEvent(await services.events.getEvent({ id: params.id })),
    catalogRead: ({ params }) => `event:${params.id}`,
  }),
  defineRoute({
    operationId: 'updateEvent',
    method: 'patch',
    path: '/v1/events/{id}',
    summary: 'Update an event or move it through its lifecycle; only the fields sent change, null clears',
    tag: TAG,
    access: secretKey('events:write'),
    errors: ['resource_missing', 'event_status_transition_invalid', 'event_finalized', 'event_currency_locked'],
    body: updateEventBody,
    response: eventResource,
    handler: async ({ params, body }, { services }) =>
      presentEvent(
        await services.events.updateEvent({
          id: params.id,
          name: body.name,
          starts_at: body.starts_at,
          ends_at: cleared(body.ends_at),
          description: cleared(body.description),
          organization_id: cleared(body.organization_id),
          venue: body.venue === undefined ? undefined : venueMessage(body.venue),
          category: cleared(body.category),
          tags: body.tags && { values: body.tags },
          currency: body.currency,
          status: body.status,
          waiting_room: body.waiting_room && waitingRoomMessage(body.waiting_room),
        }),
      ),
  }),
  defineRoute({
    operationId: 'getEventSeatmap',
    method: 'get',
    path: '/v1/events/{id}/seatmap',
    summary: "Retrieve an event's seat map with each seat's status",
    tag: TAG,
    access: secretKey('events:read'),
    response: seatMapResource,
    handler: async ({ params }, { services }) => presentSeatMap(await services.seatMaps.getSeatMap({ event_id: params.id })),
    catalogRead: ({ params }) => `seatmap:${params.id}`,
  }),
  defineRoute({
    operationId: 'setEventSeatmap',
    method: 'put',
    path: '/v1/events/{id}/seatmap',
    summary: "Set (replace) an event's seat map, and each seated tier's capacity to its seats; held and sold seats must stay under their tier",
    tag: TAG,
    access: secretKey('events:write'),
    errors: ['event_finalized', 'seatmap_locked', 'capacity_below_committed'],
    body: seatMapBody,
    // A whole layout: 100,000 seats (MAX_SEATS in catalog) with the longest labels are about 8 MB of JSON.
    bodyLimit: '10mb',
    response: seatMapResource,
    handler: async ({ params, body }, { services }) => presentSeatMap(await services.seatMaps.setSeatMap({ event_id: params.id, sections: body.sections })),
  }),
  defineRoute({
    operationId: 'listSimilarEvents',
    method: 'get',
    path: '/v1/events/{id}/similar',
    summary: "The account's other upcoming published events, most similar first",
    tag: TAG,
    access: secretKey('events:read'),
    query: listQuery,
    response: listOf(similarEventResource),
    handler: async ({ params, query }, { services }) =>
      toListEnvelope(await services.events.listSimilarEvents({ id: params.id, page: pageRequest(query) }), presentSimilarEvent),
  }),
];
