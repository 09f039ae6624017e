import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import type { PageSource } from '@ticketing/pagination';
import type { CatalogDb } from '../db';
import type { CatalogEvent } from '../domain/event';

const eventColumns = { id: true, mode: true, name: true, starts_at: true, created_at: true, updated_at: true } as const;

/** Events of one tenant. Every method takes the tenant; nothing here can see another's rows. */
export class EventRepository {
  constructor(private readonly db: CatalogDb) {}

  create(tenant: Tenant, fields: { name: string; starts_at: Date }): Promise<CatalogEvent> {
    return this.db.event.create({
      data: { id: newId('evt'), ...tenantScope(tenant), ...fields },
      select: eventColumns,
    });
  }

  findById(tenant: Tenant, id: string): Promise<CatalogEvent | null> {
    return this.db.event.findFirst({ where: { id, ...tenantScope(tenant) }, select: eventColumns });
  }

  /** Applies the changes; null when the tenant has no such event. */
  async update(tenant: Tenant, id: string, changes: { name?: string; starts_at?: Date }): Promise<CatalogEvent | null> {
    const { count } = await this.db.event.updateMany({ where: { id, ...tenantScope(tenant) }, data: changes });
    return count === 0 ? null : this.findById(tenant, id);
  }

  pages(tenant: Tenant): PageSource<CatalogEvent> {
    const scope = tenantScope(tenant);
    return {
      exists: async (id) => (await this.db.event.count({ where: { id, ...scope } })) > 0,
      fetch: (take, beforeId) =>
        this.db.event.findMany({
          where: { ...scope, ...(beforeId === undefined ? {} : { id: { lt: beforeId } }) },
          orderBy: { id: 'desc' },
          take,
          select: eventColumns,
        }),
    };
  }
}
