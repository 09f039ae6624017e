import { newId } from '@ticketing/ids';
import type { InternalClaims } from './internal-token';
import type { Mode } from './scopes';

/** The account and mode every tenant row, query, Kafka message and Redis key is scoped by. */
export interface Tenant {
  accountId: string;
  mode: Mode;
}

/** The tenant as one string (`acct_…/test`): a key for what is grouped or cached per tenant, and a name in messages. */
export function tenantKey(tenant: Tenant): string {
  return `${tenant.accountId}/${tenant.mode}`;
}

/**
 * Claims for a service acting on its own for a tenant (a re-driver, a sweep, a page it serves):
 * the tenant, no key, and a request id of its own so the calls it makes can be traced.
 */
export function claimsForTenant(tenant: Tenant): InternalClaims {
  return { request_id: newId('req'), tenant: { account_id: tenant.accountId, mode: tenant.mode } };
}
