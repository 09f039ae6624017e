import type { Tenant } from '@ticketing/auth';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import type { ApiKeyRecord } from '../../domain/api-key';
import { ApiKeyRepository } from '../../repositories/api-key.repository';

/** The keys of the caller's account and mode only, revoked ones included, newest first. */
export class ListApiKeysUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, page: PageRequest | undefined): Promise<Page<ApiKeyRecord>> {
    return paginate(page, new ApiKeyRepository(this.prisma).pages(tenant));
  }
}
