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
