import { z } from 'zod';
import { toListEnvelope } from '@ticketing/pagination';
import { listOf } from '../presenters/resource.schema';
import { compResource, presentComp } from '../presenters/ticket.presenter';
import { MAX_ORDER_QUANTITY, text, wholeNumber } from '../validation/fields';
import { listQuery, pageRequest } from '../validation/list-query';
import { defineRoute, secretKey } from './route';
import { holderFields, holderOf, requireOneHolder } from './ticket-holder';

const TAG = 'Comps (guest list)';

const createCompBody = z
  .strictObject({
    tier_id: holderFields.tier_id,
    seat_hold_id: holderFields.seat_hold_id,
    quantity: wholeNumber(1, MAX_ORDER_QUANTITY).optional().meta({ description: 'Defaults to 1. Counts against the tier’s capacity; its per-order limits and sales window do not apply.', example: 2 }),
    ...holderFields.holder,
    reason: text(500).meta({ description: 'Why the tickets are free, kept on the guest list.', example: 'Artist guest list' }),
  })
  .superRefine(requireOneHolder)
  .meta({ example: { tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3', quantity: 2, customer: { email: 'guest@example.com', name: 'Sam Guest' }, reason: 'Artist guest list' } });

export const compsRoutes = [
  defineRoute({
    operationId: 'listComps',
    method: 'get',
    path: '/v1/events/{id}/comps',
    summary: "List an event's complimentary tickets (guest list)",
    tag: TAG,
    access: secretKey('tickets:read'),
    query: listQuery,
    response: listOf(compResource),
    handler: async ({ params, query }, { services }) => toListEnvelope(await services.tickets.listComps({ event_id: params.id, page: pageRequest(query) }), presentComp),
  }),
  defineRoute({
    operationId: 'createComp',
    method: 'post',
    path: '/v1/events/{id}/comps',
    summary: 'Add complimentary tickets to the guest list',
    tag: TAG,
    access: secretKey('tickets:issue'),
    errors: ['resource_missing', 'sold_out', 'event_not_on_sale', 'seat_hold_unavailable'],
    body: createCompBody,
    response: compResource,
    handler: async ({ params, body }, { services }) =>
      presentComp(
        await services.tickets.issueComps({ event_id: params.id, tier_id: body.tier_id, quantity: body.quantity ?? 1, customer: holderOf(body), reason: body.reason, seat_hold_id: body.seat_hold_id ?? '' }),
      ),
  }),
];
