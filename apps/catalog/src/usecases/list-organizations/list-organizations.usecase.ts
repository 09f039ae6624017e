import type { Tenant } from '@ticketing/auth';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import type { CatalogOrganization } from '../../domain/organization';
import { OrganizationRepository } from '../../repositories/organization.repository';

export class ListOrganizationsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, page: PageRequest | undefined): Promise<Page<CatalogOrganization>> {
    return paginate(page, new OrganizationRepository(this.prisma).pages(tenant));
  }
}
