import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import type { WebhookEndpoint } from '../../domain/endpoint';
import { EndpointRepository } from '../../repositories/endpoint.repository';

export class GetEndpointUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, id: string): Promise<WebhookEndpoint> {
    const endpoint = await new EndpointRepository(this.prisma).findById(tenant, id);
    if (!endpoint) throw ApiError.resourceMissing('webhook_endpoint', id);
    return endpoint;
  }
}
