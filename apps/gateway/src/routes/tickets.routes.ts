import { z } from 'zod';
import { listOf, plannedObject, plannedResource } from '../presenters/resource.schema';
import { listQuery } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Tickets';
const ticket = plannedResource('ticket');

export const ticketsRoutes = [
  defineRoute({
    operationId: 'listTickets',
    method: 'get',
    path: '/v1/tickets',
    summary: 'List tickets, optionally of one event',
    tag: TAG,
    access: secretKey('tickets:read'),
    query: listQuery.extend({ event_id: z.string().min(1).max(255).optional().meta({ description: 'Only tickets of this event.' }) }),
    response: listOf(ticket),
  }),
  defineRoute({ operationId: 'getTicket', method: 'get', path: '/v1/tickets/{id}', summary: 'Retrieve a ticket', tag: TAG, access: secretKey('tickets:read'), response: ticket }),
  defineRoute({
    operationId: 'createTicketDeliveryLink',
    method: 'post',
    path: '/v1/tickets/{id}/delivery_link',
    summary: 'Create a link the holder opens to get the ticket',
    tag: TAG,
    access: secretKey('tickets:read'),
    response: plannedObject('ticket_delivery_link'),
  }),
  defineRoute({
    operationId: 'issueTickets',
    method: 'post',
    path: '/v1/events/{id}/tickets',
    summary: 'Issue tickets for an event',
    tag: TAG,
    access: secretKey('tickets:issue'),
    response: listOf(ticket),
  }),
  defineRoute({
    operationId: 'transferTicket',
    method: 'post',
    path: '/v1/tickets/{id}/transfer',
    summary: 'Transfer a ticket to another holder',
    tag: TAG,
    access: secretKey('tickets:manage'),
    response: ticket,
  }),
  defineRoute({ operationId: 'refundTicket', method: 'post', path: '/v1/tickets/{id}/refund', summary: 'Refund a ticket', tag: TAG, access: secretKey('tickets:manage'), response: ticket }),
  defineRoute({ operationId: 'revokeTicket', method: 'post', path: '/v1/tickets/{id}/revoke', summary: 'Revoke a ticket', tag: TAG, access: secretKey('tickets:manage'), response: ticket }),
  defineRoute({
    operationId: 'upgradeTicket',
    method: 'post',
    path: '/v1/tickets/{id}/upgrade',
    summary: 'Upgrade a ticket to another tier',
    tag: TAG,
    access: secretKey('tickets:manage'),
    response: ticket,
  }),
  defineRoute({
    operationId: 'listTicketUpgradeOptions',
    method: 'get',
    path: '/v1/tickets/{id}/upgrade-options',
    summary: 'List the tiers a ticket can be upgraded to',
    tag: TAG,
    access: secretKey('tickets:manage'),
    query: listQuery,
    response: listOf(plannedResource('tier')),
  }),
];
