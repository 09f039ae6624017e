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
 * native engine; statements prepared once per connection, statement-names.ts), the transaction
 * limits above, and errors without the caller's source location: with any other format, Prisma
 * captures a stack trace (`new Error()`) for every query it runs, to point a failed one's
 * message at the calling line. Our logs carry the error's own stack.
 */
export function prismaClientOptions(databaseUrl: string): { adapter: PrismaPg; transactionOptions: typeof TRANSACTION_OPTIONS; errorFormat: 'minimal' } {
  const adapter = new PrismaPg(connectionPool(databaseUrl), { statementNameGenerator: preparedStatementNames(), disposeExternalPool: true });
  return { adapter, transactionOptions: TRANSACTION_OPTIONS, errorFormat: 'minimal' };
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
  message?: unknown;
  meta?: { driverAdapterError?: { cause?: DriverAdapterCause } };
  /** Set when the driver adapter's own error arrives unwrapped (a transaction that could not begin, say). */
  cause?: unknown;
}

/** The driver adapter's account of a failure: its kind, and PostgreSQL's SQLSTATE for kind `postgres`. */
interface DriverAdapterCause {
  kind?: unknown;
  originalCode?: unknown;
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

/** Prisma's codes for a server it cannot reach, a connection the server closed, and no pooled connection in time. */
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1017', 'P2024']);
/** The driver adapter's kinds for the same. */
const UNAVAILABLE_KINDS = new Set(['ConnectionClosed', 'DatabaseNotReachable', 'SocketTimeout', 'TooManyConnections']);
/** PostgreSQL's: connection exceptions (class 08), too many connections, and a server shutting down, crashed or starting. */
const UNAVAILABLE_SQLSTATE = /^(08...|53300|57P0[1-3])$/;
/** node-postgres's own words for a connection that ended under a statement. */
const UNAVAILABLE_DRIVER_MESSAGES = ['Connection terminated unexpectedly', 'Client has encountered a connection error and is not queryable'];

/**
 * The database did not answer: the server ended or refused the connection (a restart, a
 * failover, `pg_terminate_backend`), or no connection was free in time. A statement's outcome is
 * then unknown, as a timeout's is, and a retry shortly may succeed: the service answers
 * UNAVAILABLE, which the gateway makes a 503, instead of an internal error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, meta, name, cause: ownCause } = error as PrismaQueryError & { name?: unknown };
  const cause = meta?.driverAdapterError?.cause ?? (name === 'DriverAdapterError' ? (ownCause as DriverAdapterCause | undefined) : undefined);
  if (typeof code === 'string' && UNAVAILABLE_PRISMA_CODES.has(code)) return true;
  if (typeof cause?.kind === 'string' && UNAVAILABLE_KINDS.has(cause.kind)) return true;
  if (cause?.kind === 'postgres' && typeof cause.originalCode === 'string' && UNAVAILABLE_SQLSTATE.test(cause.originalCode)) return true;
  return typeof message === 'string' && UNAVAILABLE_DRIVER_MESSAGES.some((words) => message.includes(words));
}
