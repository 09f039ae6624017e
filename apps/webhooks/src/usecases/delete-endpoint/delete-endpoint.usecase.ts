import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { EndpointRepository } from '../../repositories/endpoint.repository';

/** Deletes an endpoint for good: nothing more is delivered to it. */
export class DeleteEndpointUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, id: string): Promise<void> {
    const deleted = await this.prisma.$transaction((tx) => new EndpointRepository(tx).delete(tenant, id));
    if (!deleted) throw ApiError.resourceMissing('webhook_endpoint', id);
  }
}
