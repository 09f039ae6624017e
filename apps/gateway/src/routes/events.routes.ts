import { z } from 'zod';
import { toListEnvelope } from '@ticketing/pagination';
import { eventResource, presentEvent } from '../presenters/event.presenter';
import { listOf, plannedObject, plannedResource } from '../presenters/resource.schema';
import { listQuery, pageRequest } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Events';

const eventName = z.string().trim().min(1, 'must be 1 to 200 characters').max(200, 'must be 1 to 200 characters');
const startsAt = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2027-06-01T19:30:00Z' });

const updateEventBody = z
  .strictObject({ name: eventName.optional(), starts_at: startsAt.optional() })
  .refine((body) => body.name !== undefined || body.starts_at !== undefined, {
    message: 'Provide at least one of name, starts_at.',
    params: { code: 'parameter_missing' },
  });

export const eventsRoutes = [
  defineRoute({
    operationId: 'listEvents',
    method: 'get',
    path: '/v1/events',
    summary: 'List events, newest first',
    tag: TAG,
    access: secretKey('events:read'),
    query: listQuery,
    response: listOf(eventResource),
    handler: async ({ query }, { services }) => toListEnvelope(await services.events.listEvents({ page: pageRequest(query) }), presentEvent),
  }),
  defineRoute({
    operationId: 'createEvent',
    method: 'post',
    path: '/v1/events',
    summary: 'Create an event',
    tag: TAG,
    access: secretKey('events:write'),
    body: z.strictObject({ name: eventName, starts_at: startsAt }),
    response: eventResource,
    handler: async ({ body }, { services }) => presentEvent(await services.events.createEvent(body)),
  }),
  defineRoute({
    operationId: 'getEvent',
    method: 'get',
    path: '/v1/events/{id}',
    summary: 'Retrieve an event',
    tag: TAG,
    access: secretKey('events:read'),
    response: eventResource,
    handler: async ({ params }, { services }) => presentEvent(await services.events.getEvent({ id: params.id })),
  }),
  defineRoute({
    operationId: 'updateEvent',
    method: 'patch',
    path: '/v1/events/{id}',
    summary: 'Update an event; only the fields sent change',
    tag: TAG,
    access: secretKey('events:write'),
    body: updateEventBody,
    response: eventResource,
    handler: async ({ params, body }, { services }) => presentEvent(await services.events.updateEvent({ id: params.id, ...body })),
  }),
  defineRoute({
    operationId: 'getEventSeatmap',
    method: 'get',
    path: '/v1/events/{id}/seatmap',
    summary: "Retrieve an event's seat map",
    tag: TAG,
    access: secretKey('events:read'),
    response: plannedObject('seatmap'),
  }),
  defineRoute({
    operationId: 'listSimilarEvents',
    method: 'get',
    path: '/v1/events/{id}/similar',
    summary: 'List events similar to this one',
    tag: TAG,
    access: secretKey('events:read'),
    query: listQuery,
    response: listOf(plannedResource('event')),
  }),
  defineRoute({
    operationId: 'createTier',
    method: 'post',
    path: '/v1/events/{id}/tiers',
    summary: 'Add a ticket tier to an event',
    tag: TAG,
    access: secretKey('events:write'),
    response: plannedResource('tier'),
  }),
];
