import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import type { CatalogOrganization } from '../../domain/organization';
import { OrganizationRepository } from '../../repositories/organization.repository';

export class GetOrganizationUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, id: string): Promise<CatalogOrganization> {
    const organization = await new OrganizationRepository(this.prisma).findById(tenant, id);
    if (!organization) throw ApiError.resourceMissing('organization', id);
    return organization;
  }
}
