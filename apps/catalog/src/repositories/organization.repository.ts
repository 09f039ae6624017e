import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { CatalogDb } from '../db';
import type { CatalogOrganization } from '../domain/organization';

const organizationColumns = { id: true, mode: true, name: true, description: true, website: true, contact_email: true, created_at: true, updated_at: true } as const;

export type OrganizationFields = Pick<CatalogOrganization, 'name' | 'description' | 'website' | 'contact_email'>;

/** Organizations of one tenant. Every method takes the tenant; nothing here can see another's rows. */
export class OrganizationRepository {
  constructor(private readonly db: CatalogDb) {}

  create(tenant: Tenant, fields: OrganizationFields): Promise<CatalogOrganization> {
    return this.db.organization.create({ data: { id: newId('org'), ...tenantScope(tenant), ...fields }, select: organizationColumns });
  }

  findById(tenant: Tenant, id: string): Promise<CatalogOrganization | null> {
    return this.db.organization.findUnique({ where: { id, ...tenantScope(tenant) }, select: organizationColumns });
  }

  async exists(tenant: Tenant, id: string): Promise<boolean> {
    return (await this.db.organization.count({ where: { id, ...tenantScope(tenant) } })) > 0;
  }

  /** Applies the changes; null when the tenant has no such organization. */
  async update(tenant: Tenant, id: string, changes: Partial<OrganizationFields>): Promise<CatalogOrganization | null> {
    const { count } = await this.db.organization.updateMany({ where: { id, ...tenantScope(tenant) }, data: changes });
    return count === 0 ? null : this.findById(tenant, id);
  }

  pages(tenant: Tenant): PageSource<CatalogOrganization> {
    const scope = tenantScope(tenant);
    return {
      exists: (id) => this.exists(tenant, id),
      fetch: (take, beforeId) =>
        this.db.organization.findMany({
          where: { ...scope, ...idsBefore(beforeId) },
          orderBy: { id: 'desc' },
          take,
          select: organizationColumns,
        }),
    };
  }
}
