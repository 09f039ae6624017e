import type { Mode } from './scopes';

/** The account and mode every tenant row, query, Kafka message and Redis key is scoped by. */
export interface Tenant {
  accountId: string;
  mode: Mode;
}
