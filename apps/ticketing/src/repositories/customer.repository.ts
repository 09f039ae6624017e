import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { ApiError } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import type { TicketingDb } from '../db';
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
   * The customer with this email, created with these details if there is none. A concurrent
   * creation of the same email waits on the unique index, then finds the row it committed.
   */
  async findOrCreate(tenant: Tenant, details: CustomerDetails): Promise<TicketingCustomer> {
    // One statement finds or creates; only a creation racing this one, committed after the
    // statement's snapshot, leaves both halves empty, and a second look then finds it.
    const rows = await this.db.$queryRaw<TicketingCustomer[]>`
      WITH created AS (
        INSERT INTO customers (id, account_id, mode, email, name) VALUES (${newId('cus')}, ${tenant.accountId}, ${tenant.mode}, ${details.email}, ${details.name})
        ON CONFLICT (account_id, mode, email) DO NOTHING
        RETURNING id, mode, email, name, created_at, updated_at)
      SELECT * FROM created
      UNION ALL
      SELECT id, mode, email, name, created_at, updated_at FROM customers WHERE account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND email = ${details.email}`;
    const customer = rows[0] ?? (await this.findByEmail(tenant, details.email));
    if (!customer) throw new Error(`customer email ${details.email} conflicted, yet no customer has it`);
    return customer;
  }

  /** The customer a request names: by id (resource_missing when the tenant has none), or by email, created if new. */
  async resolve(tenant: Tenant, choice: CustomerChoice): Promise<TicketingCustomer> {
    if ('details' in choice) return this.findOrCreate(tenant, choice.details);
    const found = await this.findById(tenant, choice.customer_id);
    if (!found) throw ApiError.resourceMissing('customer', choice.customer_id, 'customer_id');
    return found;
  }

  findById(tenant: Tenant, id: string): Promise<TicketingCustomer | null> {
    return this.db.customer.findUnique({ where: { id, ...tenantScope(tenant) }, select: customerColumns });
  }

  findByEmail(tenant: Tenant, email: string): Promise<TicketingCustomer | null> {
    return this.db.customer.findUnique({ where: { account_id_mode_email: { account_id: tenant.accountId, mode: tenant.mode, email } }, select: customerColumns });
  }
}
