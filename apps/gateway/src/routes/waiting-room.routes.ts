import { z } from 'zod';
import { presentQueue, presentQueueEntry, queueEntryResource, queueResource } from '../presenters/queue.presenter';
import { resourceId } from '../validation/fields';
import { defineRoute, secretKey } from './route';

const TAG = 'Waiting room';
const access = secretKey('tickets:issue');
const entryId = resourceId('qen').meta({ description: 'The entry’s id, from POST /v1/events/{id}/queue/join.' });

export const waitingRoomRoutes = [
  defineRoute({
    operationId: 'getQueue',
    method: 'get',
    path: '/v1/events/{id}/queue',
    summary: "Read an event's waiting room and, with entry_id, one entry (its admission token once admitted)",
    tag: TAG,
    access,
    errors: ['waiting_room_disabled', 'resource_missing'],
    query: z.strictObject({ entry_id: entryId.optional() }),
    response: queueResource,
    handler: async ({ params, query }, { services }) => presentQueue(await services.waitingRoom.getQueue({ event_id: params.id, entry_id: query.entry_id ?? '' })),
  }),
  defineRoute({
    operationId: 'joinQueue',
    method: 'post',
    path: '/v1/events/{id}/queue/join',
    summary: 'Join the waiting room; entries are admitted first in, first out, at the event’s rate',
    tag: TAG,
    access,
    errors: ['waiting_room_disabled', 'event_not_on_sale'],
    body: z.strictObject({}),
    response: queueEntryResource,
    handler: async ({ params }, { services }) => presentQueueEntry(await services.waitingRoom.joinQueue({ event_id: params.id })),
  }),
  defineRoute({
    operationId: 'leaveQueue',
    method: 'post',
    path: '/v1/events/{id}/queue/leave',
    summary: 'Leave the waiting room: a waiting entry gives its place up, an admitted one its admission (its token stops working)',
    tag: TAG,
    access,
    errors: ['waiting_room_disabled', 'resource_missing'],
    body: z.strictObject({ entry_id: entryId }).meta({ example: { entry_id: 'qen_01JD3WF3G5J7L9N1Q3S5U7W9Y1' } }),
    response: queueEntryResource,
    handler: async ({ params, body }, { services }) => presentQueueEntry(await services.waitingRoom.leaveQueue({ event_id: params.id, entry_id: body.entry_id })),
  }),
];
