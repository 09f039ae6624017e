import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { PREVIOUS_SECRET_OVERLAP_MS, type WebhookEndpoint } from '../../domain/endpoint';
import { EndpointRepository } from '../../repositories/endpoint.repository';
import { newSigningSecret, type EndpointSecrets } from '../../secrets/endpoint-secrets';

/**
 * Gives an endpoint a new signing secret. The current one keeps signing beside it for
 * PREVIOUS_SECRET_OVERLAP_MS, so a receiver can switch to the new secret without missing a
 * delivery; a secret still overlapping from an earlier rotation stops at once.
 */
export class RotateEndpointSecretUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly secrets: EndpointSecrets,
  ) {}

  execute(tenant: Tenant, id: string, now = new Date()): Promise<WebhookEndpoint> {
    const sealed = this.secrets.seal(newSigningSecret(), id);
    return this.prisma.$transaction(async (tx) => {
      const rotated = await new EndpointRepository(tx).rotateSecret(tenant, id, sealed, new Date(now.getTime() + PREVIOUS_SECRET_OVERLAP_MS));
      if (!rotated) throw ApiError.resourceMissing('webhook_endpoint', id);
      return rotated;
    });
  }
}
