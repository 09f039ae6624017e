import type { InternalClaims, Tenant } from '@ticketing/auth';
import { newId } from '@ticketing/ids';

/**
 * Claims for ticketing acting on its own for a tenant (the re-drivers, the ticket pages): the
 * tenant, no key, and a request id of its own so the calls it makes can be traced.
 */
export function claimsForTenant(tenant: Tenant): InternalClaims {
  return { request_id: newId('req'), tenant: { account_id: tenant.accountId, mode: tenant.mode } };
}
