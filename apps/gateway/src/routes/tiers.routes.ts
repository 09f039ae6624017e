import { z } from 'zod';
import { toListEnvelope } from '@ticketing/pagination';
import { listOf } from '../presenters/resource.schema';
import { presentTier, tierResource } from '../presenters/tier.presenter';
import { absentOrNull, amount, currency, dateTime, patchBody, text, wholeNumber } from '../validation/fields';
import { listQuery, pageRequest } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Tiers';

const perOrder = wholeNumber(1, 10_000_000);

const createTierBody = z.strictObject({
  name: text(100).meta({ example: 'General admission' }),
  price: amount,
  capacity: wholeNumber(0, 10_000_000).meta({
    description: 'Tickets the tier sells. A seated tier’s capacity follows the seat map once there is one: its number of seats. So a seated tier added to an event that has a seat map is created with capacity 0, and gets seats from the next seat map.',
    example: 500,
  }),
  currency: currency.optional().meta({ description: 'When given, must be the event’s currency.' }),
  sales_start_at: absentOrNull(dateTime),
  sales_end_at: absentOrNull(dateTime),
  min_per_order: perOrder.optional().meta({ description: 'Defaults to 1. At most the capacity, unless the capacity is 0.', example: 1 }),
  max_per_order: absentOrNull(perOrder).meta({ description: 'No maximum when left out or null.', example: 8 }),
  seated: z.boolean().optional().meta({ description: 'Seated tiers sell the seats mapped to them in the seat map. Defaults to false.' }),
  rank: wholeNumber(0, 1000).optional().meta({ description: 'Higher is better; upgrades go to a higher rank. Defaults to 0.', example: 1 }),
}).meta({ example: { name: 'General admission', price: 4500, capacity: 500, sales_start_at: '2027-03-01T10:00:00Z', max_per_order: 8 } });

const updateTierBody = patchBody({
  name: text(100).optional(),
  price: amount.optional(),
  capacity: wholeNumber(0, 10_000_000)
    .optional()
    .meta({ description: 'Never below what is held and sold at that instant (409 capacity_below_committed). Not for a seated tier of an event with a seat map: its capacity is its number of seats.' }),
  sales_start_at: dateTime.nullable().optional(),
  sales_end_at: dateTime.nullable().optional(),
  min_per_order: perOrder.optional(),
  max_per_order: perOrder.nullable().optional(),
  rank: wholeNumber(0, 1000).optional(),
}).meta({ example: { capacity: 450, max_per_order: null } });

export const tiersRoutes = [
  defineRoute({
    operationId: 'createTier',
    method: 'post',
    path: '/v1/events/{id}/tiers',
    summary: 'Add a ticket tier to an event',
    tag: TAG,
    access: secretKey('events:write'),
    errors: ['event_finalized'],
    body: createTierBody,
    response: tierResource,
    handler: async ({ params, body }, { services }) =>
      presentTier(
        await services.tiers.createTier({
          event_id: params.id,
          name: body.name,
          price: body.price,
          capacity: body.capacity,
          currency: body.currency,
          sales_start_at: body.sales_start_at ?? '',
          sales_end_at: body.sales_end_at ?? '',
          min_per_order: body.min_per_order,
          max_per_order: body.max_per_order,
          seated: body.seated ?? false,
          rank: body.rank ?? 0,
        }),
      ),
  }),
  defineRoute({
    operationId: 'listTiers',
    method: 'get',
    path: '/v1/events/{id}/tiers',
    summary: "List an event's tiers, newest first",
    tag: TAG,
    access: secretKey('events:read'),
    query: listQuery,
    response: listOf(tierResource),
    handler: async ({ params, query }, { services }) => toListEnvelope(await services.tiers.listTiers({ event_id: params.id, page: pageRequest(query) }), presentTier),
  }),
  defineRoute({
    operationId: 'updateTier',
    method: 'patch',
    path: '/v1/events/{id}/tiers/{tierId}',
    summary: 'Update a tier; only the fields sent change, null clears',
    tag: TAG,
    access: secretKey('events:write'),
    errors: ['event_finalized', 'capacity_below_committed'],
    body: updateTierBody,
    response: tierResource,
    handler: async ({ params, body }, { services }) =>
      presentTier(
        await services.tiers.updateTier({
          event_id: params.id,
          id: params.tierId,
          name: body.name,
          price: body.price,
          capacity: body.capacity,
          sales_start_at: body.sales_start_at === null ? '' : body.sales_start_at,
          sales_end_at: body.sales_end_at === null ? '' : body.sales_end_at,
          min_per_order: body.min_per_order,
          max_per_order: body.max_per_order === null ? 0 : body.max_per_order,
          rank: body.rank,
        }),
      ),
  }),
];
