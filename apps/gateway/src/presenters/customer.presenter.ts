import { z } from 'zod';
import type { ticketingV1 } from '@ticketing/contracts';
import { nullIfEmpty } from './fields';
import { resourceFields, timestamp } from './resource.schema';

export const customerResource = z
  .object({
    ...resourceFields('customer'),
    email: z.string().meta({ description: 'Lower case; one customer per email in an account and mode.', example: 'ann@example.com' }),
    name: z.string().nullable().meta({ example: 'Ann Lee' }),
    updated_at: timestamp,
  })
  .meta({
    id: 'Customer',
    example: {
      id: 'cus_01JD3WC1E3G5J7L9N1Q3S5U7W9',
      object: 'customer',
      livemode: false,
      email: 'ann@example.com',
      name: 'Ann Lee',
      created_at: '2027-01-10T09:00:00.000Z',
      updated_at: '2027-01-10T09:00:00.000Z',
    },
  });

export function presentCustomer(customer: ticketingV1.Customer): z.output<typeof customerResource> {
  return {
    id: customer.id,
    object: 'customer',
    livemode: customer.livemode,
    email: customer.email,
    name: nullIfEmpty(customer.name),
    created_at: customer.created_at,
    updated_at: customer.updated_at,
  };
}
