import { isRefusal } from '@ticketing/errors';
import { claimsForTenant, type InternalClaims, type Tenant } from '@ticketing/auth';
import type { Logger } from '@ticketing/observability';

const BATCH = 100;

/** Records a crash or a lost call can leave in a pending state, oldest first across tenants. */
export interface StalledRecords {
  stalled(before: Date, limit: number): Promise<Array<{ id: string; tenant: Tenant }>>;
  /** Sends a record that could not be driven on to the back of the queue. */
  postpone(id: string, at: Date): Promise<void>;
}

/**
 * Drives on up to a hundred records that have not moved for `stalledForMs` (issuances 0030,
 * upgrades 0032). A refusal settles a record as much as a success does; one that still cannot
 * move (catalog unreachable) is postponed to the next pass. Answers how many were settled.
 */
export async function redriveStalled(options: {
  what: string;
  records: StalledRecords;
  drive: (claims: InternalClaims, tenant: Tenant, id: string) => Promise<unknown>;
  stalledForMs: number;
  logger: Logger;
  clock: () => Date;
}): Promise<number> {
  const { what, records, drive, logger, clock } = options;
  let settled = 0;
  for (const { id, tenant } of await records.stalled(new Date(clock().getTime() - options.stalledForMs), BATCH)) {
    try {
      await drive(claimsForTenant(tenant), tenant, id);
      settled += 1;
    } catch (error) {
      if (isRefusal(error)) {
        settled += 1;
        continue;
      }
      logger.warn({ err: error, id }, `a stalled ${what} could not be driven on; it waits for the next pass`);
      await records.postpone(id, clock());
    }
  }
  return settled;
}
