import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import type { Tenant } from '@ticketing/auth';
import { preparedStatementNames } from './statement-names';

/**
 * How long an interactive transaction may wait for a pooled connection, and run. Prisma's
 * default wait is 2 s; under an on-sale rush a request queued behind the pool would fail with a
 * 500 after it, although its caller (the gateway's gRPC deadline, 10 s by default) would still
 * wait. A transaction waits as long as a call may take instead.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 10_000 } as const;

/**
 * The options every service's generated Prisma client is built with: the driver adapter (no
 * native engine; statements prepared once per connection, statement-names.ts) and the
 * transaction limits above.
 */
export function prismaClientOptions(databaseUrl: string): { adapter: PrismaPg; transactionOptions: typeof TRANSACTION_OPTIONS } {
  const adapter = new PrismaPg(connectionPool(databaseUrl), { statementNameGenerator: preparedStatementNames(), disposeExternalPool: true });
  return { adapter, transactionOptions: TRANSACTION_OPTIONS };
}

/**
 * The pool Prisma's adapter runs on, every connection of which handles its own errors from the
 * moment it connects. The adapter listens for a connection's errors only once an interactive
 * transaction has it, after an `await`: a connection ended by the server (a restart, a failover,
 * `pg_terminate_backend`) between its check-out and that listener raised an 'error' event nobody
 * handled, and the process exited (a fault probe; reproduced with 20 concurrent transactions).
 * The statement that uses a broken connection still fails with the error, and the pool drops it.
 */
function connectionPool(databaseUrl: string): Pool {
  const pool = new Pool({ connectionString: databaseUrl });
  pool.on('connect', (connection) => connection.on('error', () => undefined));
  return pool;
}

/**
 * The `where` fragment that scopes a tenant row. Repositories spread it into every query, and
 * take a Tenant in every method, so an unscoped query has no way to be written.
 */
export function tenantScope(tenant: Tenant): { account_id: string; mode: Tenant['mode'] } {
  return { account_id: tenant.accountId, mode: tenant.mode };
}

/** What Prisma reports of a failed query, raw or not. */
interface PrismaQueryError {
  code?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown } } };
}

/**
 * A unique-constraint violation: Prisma's P2002 for its own queries; for raw SQL (P2010), the
 * driver adapter's kind.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, meta } = error as PrismaQueryError;
  return code === 'P2002' || (code === 'P2010' && meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation');
}
