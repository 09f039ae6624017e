import { listOf, plannedResource } from '../presenters/resource.schema';
import { listQuery } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Comps (guest list)';
const comp = plannedResource('comp');

export const compsRoutes = [
  defineRoute({
    operationId: 'listComps',
    method: 'get',
    path: '/v1/events/{id}/comps',
    summary: "List an event's complimentary tickets (guest list)",
    tag: TAG,
    access: secretKey('tickets:read'),
    query: listQuery,
    response: listOf(comp),
  }),
  defineRoute({
    operationId: 'createComp',
    method: 'post',
    path: '/v1/events/{id}/comps',
    summary: 'Add a complimentary ticket to the guest list',
    tag: TAG,
    access: secretKey('tickets:issue'),
    response: comp,
  }),
];
