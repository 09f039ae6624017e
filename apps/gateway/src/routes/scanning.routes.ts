import { plannedObject, plannedResource } from '../presenters/resource.schema';
import { presentTicketCodeKeySet, ticketCodeKeySetResource } from '../presenters/ticket.presenter';
import { defineRoute, secretKey } from './route';

const TAG = 'Scanning';
const access = secretKey('scanning:write');

export const scanningRoutes = [
  defineRoute({
    operationId: 'listTicketCodeKeys',
    method: 'get',
    path: '/v1/scan/keys',
    summary: 'Get the public keys that verify ticket codes offline',
    tag: TAG,
    access,
    response: ticketCodeKeySetResource,
    handler: async (_input, { services }) => presentTicketCodeKeySet(await services.tickets.listCodeKeys({})),
  }),
  defineRoute({
    operationId: 'validateScan',
    method: 'post',
    path: '/v1/scan/validate',
    summary: 'Validate a ticket at the door',
    tag: TAG,
    access,
    response: plannedObject('scan_result'),
  }),
  defineRoute({
    operationId: 'syncScanBatch',
    method: 'post',
    path: '/v1/scan/batch',
    summary: 'Upload scans recorded offline',
    tag: TAG,
    access,
    response: plannedObject('scan_batch_result'),
  }),
  defineRoute({
    operationId: 'recordAttendance',
    method: 'post',
    path: '/v1/tickets/{id}/attendance',
    summary: 'Check a ticket in',
    tag: TAG,
    access,
    response: plannedResource('attendance'),
  }),
];
