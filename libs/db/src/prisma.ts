import { PrismaPg } from '@prisma/adapter-pg';
import type { Tenant } from '@ticketing/auth';
import { preparedStatementNames } from './statement-names';

/**
 * The driver adapter every service's generated Prisma client is built with (no native engine).
 * Statements are prepared once per connection (statement-names.ts).
 */
export function prismaAdapter(databaseUrl: string): PrismaPg {
  return new PrismaPg({ connectionString: databaseUrl }, { statementNameGenerator: preparedStatementNames() });
}

/**
 * The `where` fragment that scopes a tenant row. Repositories spread it into every query, and
 * take a Tenant in every method, so an unscoped query has no way to be written.
 */
export function tenantScope(tenant: Tenant): { account_id: string; mode: Tenant['mode'] } {
  return { account_id: tenant.accountId, mode: tenant.mode };
}

/** Prisma's code for a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}
