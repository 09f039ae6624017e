import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { CatalogDb } from '../db';
import { OrganizationRepository } from '../repositories/organization.repository';

/** An event may only name an organization of the same account and mode; null names none. */
export async function assertOrganizationExists(db: CatalogDb, tenant: Tenant, id: string | null): Promise<void> {
  if (id !== null && !(await new OrganizationRepository(db).exists(tenant, id))) throw ApiError.resourceMissing('organization', id, 'organization_id');
}
