import type { Tenant } from '@ticketing/auth';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import { keysManagedBy, type ApiKeyRecord } from '../../domain/api-key';
import { ApiKeyRepository } from '../../repositories/api-key.repository';

/** The keys the caller manages (decision 0047), revoked ones included, newest first. */
export class ListApiKeysUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, page: PageRequest | undefined): Promise<Page<ApiKeyRecord>> {
    return paginate(page, new ApiKeyRepository(this.prisma).pages(keysManagedBy(tenant)));
  }
}
