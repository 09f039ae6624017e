import { plannedObject } from '../presenters/resource.schema';
import { defineRoute, secretKey } from './route';

const TAG = 'Reports';
const access = secretKey('reports:read');

export const reportsRoutes = [
  defineRoute({ operationId: 'getSalesReport', method: 'get', path: '/v1/reports/sales', summary: 'Read the sales report', tag: TAG, access, response: plannedObject('sales_report') }),
  defineRoute({
    operationId: 'getAttendanceReport',
    method: 'get',
    path: '/v1/reports/attendance',
    summary: 'Read the attendance report',
    tag: TAG,
    access,
    response: plannedObject('attendance_report'),
  }),
];
