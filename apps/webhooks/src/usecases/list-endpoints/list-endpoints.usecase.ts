import type { Tenant } from '@ticketing/auth';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import type { WebhookEndpoint } from '../../domain/endpoint';
import { EndpointRepository } from '../../repositories/endpoint.repository';

export class ListEndpointsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, page: PageRequest | undefined): Promise<Page<WebhookEndpoint>> {
    return paginate(page, new EndpointRepository(this.prisma).pages(tenant));
  }
}
