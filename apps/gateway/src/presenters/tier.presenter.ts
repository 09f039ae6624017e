import { z } from 'zod';
import type { catalogV1 } from '@ticketing/contracts';
import { nullIfEmpty, nullIfZero } from './fields';
import { resourceFields, timestamp } from './resource.schema';

export const tierResource = z
  .object({
    ...resourceFields('tier'),
    event_id: z.string().meta({ example: 'evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST' }),
    name: z.string().meta({ example: 'General admission' }),
    price: z.number().int().meta({ description: 'Minor units of `currency` (the event’s).', example: 4500 }),
    currency: z.string().meta({ description: 'ISO 4217, the event’s currency.', example: 'EUR' }),
    capacity: z.number().int().meta({ description: 'Tickets this tier can ever have held or sold at once.', example: 500 }),
    held: z.number().int().meta({
      description: 'Tickets in open holds and unpaid orders. A seated tier’s seats held by seat holds are not counted until a sale of them starts: the event’s seat map shows them held.',
      example: 12,
    }),
    sold: z.number().int().meta({ example: 230 }),
    available: z.number().int().meta({ description: 'capacity − held − sold. For a seated tier, the seat map says which seats can be held now.', example: 258 }),
    sales_start_at: timestamp.nullable().meta({ description: 'Null: on sale as soon as the event is published.' }),
    sales_end_at: timestamp.nullable().meta({ description: 'Null: on sale until the event starts.' }),
    min_per_order: z.number().int().meta({ example: 1 }),
    max_per_order: z.number().int().nullable().meta({ description: 'Null: no maximum per order.', example: 8 }),
    seated: z.boolean().meta({ description: 'Seated tiers sell the seats mapped to them in the event’s seat map.' }),
    rank: z.number().int().meta({ description: 'Higher is better; upgrades move a ticket to a higher rank.', example: 1 }),
    updated_at: timestamp,
  })
  .meta({
    id: 'Tier',
    example: {
      id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3',
      object: 'tier',
      livemode: false,
      event_id: 'evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST',
      name: 'General admission',
      price: 4500,
      currency: 'EUR',
      capacity: 500,
      held: 12,
      sold: 230,
      available: 258,
      sales_start_at: '2027-03-01T10:00:00.000Z',
      sales_end_at: null,
      min_per_order: 1,
      max_per_order: 8,
      seated: false,
      rank: 0,
      created_at: '2027-01-10T09:00:00.000Z',
      updated_at: '2027-01-10T09:00:00.000Z',
    },
  });

export function presentTier(tier: catalogV1.Tier): z.output<typeof tierResource> {
  return {
    id: tier.id,
    object: 'tier',
    livemode: tier.livemode,
    event_id: tier.event_id,
    name: tier.name,
    price: tier.price,
    currency: tier.currency,
    capacity: tier.capacity,
    held: tier.held,
    sold: tier.sold,
    available: tier.capacity - tier.held - tier.sold,
    sales_start_at: nullIfEmpty(tier.sales_start_at),
    sales_end_at: nullIfEmpty(tier.sales_end_at),
    min_per_order: tier.min_per_order,
    max_per_order: nullIfZero(tier.max_per_order),
    seated: tier.seated,
    rank: tier.rank,
    created_at: tier.created_at,
    updated_at: tier.updated_at,
  };
}
