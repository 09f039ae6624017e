import { validCustomerDetails, type CustomerDetails } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';

export { validCustomerDetails, type CustomerDetails };

/** A ticket holder of one account and mode; one per email. */
export interface TicketingCustomer {
  id: string;
  mode: string;
  /** Lower case: Ann@Example.com and ann@example.com are one customer. */
  email: string;
  name: string | null;
  created_at: Date;
  updated_at: Date;
}

export function customerExists(existing: TicketingCustomer): ApiError {
  return new ApiError('customer_exists', `A customer with this email already exists: '${existing.id}'. Use it, or issue tickets to the email, which finds it.`, { param: 'email' });
}

/** Who tickets are for, as a request names them: an existing customer, or an email that finds or creates one. */
export type CustomerChoice = { customer_id: string } | { details: CustomerDetails };

/** The gRPC CustomerReference, decoded. */
export interface CustomerReference {
  reference?: { $case: 'customer_id'; value: string } | { $case: 'details'; value: { email: string; name: string } };
}

export function validCustomerChoice(customer: CustomerReference | undefined): CustomerChoice {
  const reference = customer?.reference;
  if (!reference) throw new ApiError('parameter_missing', 'Missing required parameter: customer (an email, or customer_id).', { param: 'customer' });
  return reference.$case === 'customer_id'
    ? { customer_id: requiredIdParam(reference.value, 'customer_id') }
    : { details: validCustomerDetails(reference.value.email, reference.value.name, 'customer.') };
}
