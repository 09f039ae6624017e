import { listOf, plannedResource } from '../presenters/resource.schema';
import { listQuery } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Organizations';

export const organizationsRoutes = [
  defineRoute({
    operationId: 'listOrganizations',
    method: 'get',
    path: '/v1/organizations',
    summary: 'List organizations',
    tag: TAG,
    access: secretKey('events:read'),
    query: listQuery,
    response: listOf(plannedResource('organization')),
  }),
  defineRoute({
    operationId: 'getOrganization',
    method: 'get',
    path: '/v1/organizations/{id}',
    summary: 'Retrieve an organization',
    tag: TAG,
    access: secretKey('events:read'),
    response: plannedResource('organization'),
  }),
];
