import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { ApiError } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import type { TicketingDb } from '../db';
import { Prisma } from '../generated/prisma/client';
import type { CustomerChoice, CustomerDetails, TicketingCustomer } from '../domain/customer';

const customerColumns = { id: true, mode: true, email: true, name: true, created_at: true, updated_at: true } as const;

/** Customers of one tenant. Every method takes the tenant; nothing here can see another's rows. */
export class CustomerRepository {
  constructor(private readonly db: TicketingDb) {}

  /** The new customer, or null when the email already has one. */
  async create(tenant: Tenant, details: CustomerDetails): Promise<TicketingCustomer | null> {
    const rows = await this.db.$queryRaw<TicketingCustomer[]>`
      INSERT INTO customers (id, account_id, mode, email, name) VALUES (${newId('cus')}, ${tenant.accountId}, ${tenant.mode}, ${details.email}, ${details.name})
      ON CONFLICT (account_id, mode, email) DO NOTHING
      RETURNING id, mode, email, name, created_at, updated_at`;
    return rows[0] ?? null;
  }

  /**
   * The customer a request names: by id (resource_missing when the tenant has none), or by
   * email, created with these details if there is none, in one statement (`buyerCte`). A
   * concurrent creation of the same email, committed after the statement's snapshot, leaves it
   * empty; a second look then finds that customer.
   */
  async resolve(tenant: Tenant, choice: CustomerChoice): Promise<TicketingCustomer> {
    const [found] = await this.db.$queryRaw<TicketingCustomer[]>`WITH ${buyerCte(tenant, choice)} SELECT * FROM buyer LIMIT 1`;
    if (found) return found;
    if ('customer_id' in choice) throw ApiError.resourceMissing('customer', choice.customer_id, 'customer_id');
    const raced = await this.findByEmail(tenant, choice.details.email);
    if (!raced) throw new Error(`customer email ${choice.details.email} conflicted, yet no customer has it`);
    return raced;
  }

  findById(tenant: Tenant, id: string): Promise<TicketingCustomer | null> {
    return this.db.customer.findUnique({ where: { id, ...tenantScope(tenant) }, select: customerColumns });
  }

  findByEmail(tenant: Tenant, email: string): Promise<TicketingCustomer | null> {
    return this.db.customer.findUnique({ where: { account_id_mode_email: { account_id: tenant.accountId, mode: tenant.mode, email } }, select: customerColumns });
  }
}

/**
 * The CTEs `new_customer` and `buyer` of a statement that needs the customer a request names:
 * `buyer` is the tenant's customer with that id, or the one with that email, created with these
 * details (and `newCustomerId`) if the email is new. Empty when the id is not the tenant's, or
 * when a concurrent statement created the email's customer after this one's snapshot (look again).
 */
export function buyerCte(tenant: Tenant, choice: CustomerChoice, newCustomerId: string = newId('cus')): Prisma.Sql {
  const id = 'customer_id' in choice ? choice.customer_id : null;
  const details = 'details' in choice ? choice.details : null;
  return Prisma.sql`
    new_customer AS (
      INSERT INTO customers (id, account_id, mode, email, name)
      SELECT ${newCustomerId}, ${tenant.accountId}, ${tenant.mode}, ${details?.email ?? null}::text, ${details?.name ?? null}::text WHERE ${id}::text IS NULL
      ON CONFLICT (account_id, mode, email) DO NOTHING
      RETURNING id, mode, email, name, created_at, updated_at),
    buyer AS (
      SELECT * FROM new_customer
      UNION ALL SELECT id, mode, email, name, created_at, updated_at FROM (${customerById(id)}) by_id WHERE account_id = ${tenant.accountId} AND mode = ${tenant.mode}
      UNION ALL SELECT id, mode, email, name, created_at, updated_at FROM customers
       WHERE account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND email = ${details?.email ?? null}::text)`;
}

/**
 * The customer with this id, whoever's, through the primary key: the caller then checks it is the
 * tenant's. `OFFSET 0` keeps the tenant's conditions out of the lookup, so it stays one primary-key
 * probe even when the planner has no statistics on the table (a fresh database, autovacuum off):
 * with them inside, it may read every customer of the tenant through the email index instead.
 */
export function customerById(id: Prisma.Sql | string | null): Prisma.Sql {
  return Prisma.sql`SELECT * FROM customers WHERE id = ${id}::text COLLATE "C" OFFSET 0`;
}
