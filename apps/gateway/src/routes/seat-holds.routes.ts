import { deletedResource, plannedResource } from '../presenters/resource.schema';
import { defineRoute, secretKey } from './route';

const TAG = 'Seat holds';

export const seatHoldsRoutes = [
  defineRoute({
    operationId: 'createSeatHold',
    method: 'post',
    path: '/v1/events/{id}/seats/hold',
    summary: 'Hold seats for a short time while a buyer checks out',
    tag: TAG,
    access: secretKey('tickets:issue'),
    response: plannedResource('seat_hold'),
  }),
  defineRoute({
    operationId: 'releaseSeatHold',
    method: 'delete',
    path: '/v1/events/{id}/seats/hold/{holdId}',
    summary: 'Release held seats',
    tag: TAG,
    access: secretKey('tickets:issue'),
    response: deletedResource('seat_hold'),
  }),
];
