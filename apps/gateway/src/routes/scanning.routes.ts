import { plannedObject, plannedResource } from '../presenters/resource.schema';
import { defineRoute, secretKey } from './route';

const TAG = 'Scanning';
const access = secretKey('scanning:write');

export const scanningRoutes = [
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
