import { deletedResource, listOf, plannedResource } from '../presenters/resource.schema';
import { listQuery } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Segments';
const access = secretKey('customers:write');
const segment = plannedResource('segment');

export const segmentsRoutes = [
  defineRoute({ operationId: 'listSegments', method: 'get', path: '/v1/segments', summary: 'List saved segments', tag: TAG, access, query: listQuery, response: listOf(segment) }),
  defineRoute({ operationId: 'createSegment', method: 'post', path: '/v1/segments', summary: 'Save a segment', tag: TAG, access, response: segment }),
  defineRoute({ operationId: 'getSegment', method: 'get', path: '/v1/segments/{id}', summary: 'Retrieve a saved segment', tag: TAG, access, response: segment }),
  defineRoute({ operationId: 'updateSegment', method: 'patch', path: '/v1/segments/{id}', summary: 'Update a saved segment', tag: TAG, access, response: segment }),
  defineRoute({ operationId: 'deleteSegment', method: 'delete', path: '/v1/segments/{id}', summary: 'Delete a saved segment', tag: TAG, access, response: deletedResource('segment') }),
];
