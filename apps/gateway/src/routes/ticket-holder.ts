import type { ticketingV1 } from '@ticketing/contracts';
import { missing, resourceId, type Issues } from '../validation/fields';
import { newCustomer } from './customers.routes';

/** The body fields every issuance shares: the tier, its seats if seated, and the holder as `customer` or `customer_id`. */
export const holderFields = {
  tier_id: resourceId('tier'),
  seat_hold_id: resourceId('hold')
    .optional()
    .meta({ description: 'Required for a seated tier: an active seat hold holding exactly `quantity` seats of the tier; the tickets are for its seats.' }),
  holder: {
    customer: newCustomer.optional().meta({ description: 'The holder, found by email (case-insensitive) or created. `name` names a customer created here; an existing customer keeps its name. Give this or customer_id.' }),
    customer_id: resourceId('cus').optional().meta({ description: 'An existing customer as the holder. Give this or customer.' }),
  },
};

interface HolderBody {
  customer?: { email: string; name?: string };
  customer_id?: string;
}

/** Exactly one of `customer` and `customer_id`. */
export function requireOneHolder(body: HolderBody, ctx: Issues): void {
  if (body.customer === undefined && body.customer_id === undefined) missing(ctx, 'customer', 'Missing required parameter: customer (or customer_id)');
  if (body.customer !== undefined && body.customer_id !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['customer_id'], message: 'give customer or customer_id, not both', input: body.customer_id });
  }
}

/** The holder as ticketing's CustomerReference; the body passed requireOneHolder. */
export function holderOf(body: HolderBody): ticketingV1.CustomerReference {
  return {
    reference: body.customer_id
      ? { $case: 'customer_id', value: body.customer_id }
      : { $case: 'details', value: { email: body.customer!.email, name: body.customer!.name ?? '' } },
  };
}
