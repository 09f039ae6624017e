import { plannedObject, plannedResource } from '../presenters/resource.schema';
import { defineRoute, secretKey } from './route';

const TAG = 'Waiting room';
const access = secretKey('tickets:issue');
const queueEntry = plannedResource('queue_entry');

export const waitingRoomRoutes = [
  defineRoute({ operationId: 'getQueue', method: 'get', path: '/v1/events/{id}/queue', summary: "Read an event's on-sale waiting room", tag: TAG, access, response: plannedObject('queue') }),
  defineRoute({ operationId: 'joinQueue', method: 'post', path: '/v1/events/{id}/queue/join', summary: 'Join the waiting room', tag: TAG, access, response: queueEntry }),
  defineRoute({ operationId: 'leaveQueue', method: 'post', path: '/v1/events/{id}/queue/leave', summary: 'Leave the waiting room', tag: TAG, access, response: queueEntry }),
];
