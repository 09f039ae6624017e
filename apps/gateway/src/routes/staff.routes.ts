import { deletedResource, listOf, plannedObject, plannedResource } from '../presenters/resource.schema';
import { listQuery } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Door staff';
const access = secretKey('staff:manage');
const staffMember = plannedResource('staff_member');

export const staffRoutes = [
  defineRoute({ operationId: 'createStaffMember', method: 'post', path: '/v1/staff', summary: 'Add a door staff member', tag: TAG, access, response: staffMember }),
  defineRoute({ operationId: 'listStaff', method: 'get', path: '/v1/staff', summary: 'List door staff', tag: TAG, access, query: listQuery, response: listOf(staffMember) }),
  defineRoute({ operationId: 'getStaffMember', method: 'get', path: '/v1/staff/{id}', summary: 'Retrieve a staff member', tag: TAG, access, response: staffMember }),
  defineRoute({ operationId: 'updateStaffMember', method: 'patch', path: '/v1/staff/{id}', summary: 'Update a staff member', tag: TAG, access, response: staffMember }),
  defineRoute({
    operationId: 'deleteStaffMember',
    method: 'delete',
    path: '/v1/staff/{id}',
    summary: 'Remove a staff member',
    tag: TAG,
    access,
    response: deletedResource('staff_member'),
  }),
  defineRoute({
    operationId: 'createStaffAssignment',
    method: 'post',
    path: '/v1/staff/{id}/assignments',
    summary: 'Assign a staff member to an event',
    tag: TAG,
    access,
    response: plannedResource('staff_assignment'),
  }),
  defineRoute({
    operationId: 'deleteStaffAssignment',
    method: 'delete',
    path: '/v1/staff/{id}/assignments/{eventId}',
    summary: 'Unassign a staff member from an event',
    tag: TAG,
    access,
    response: deletedResource('staff_assignment'),
  }),
  defineRoute({
    operationId: 'getStaffStats',
    method: 'get',
    path: '/v1/staff/{id}/stats',
    summary: "Read a staff member's scanning stats",
    tag: TAG,
    access,
    response: plannedObject('staff_stats'),
  }),
];
