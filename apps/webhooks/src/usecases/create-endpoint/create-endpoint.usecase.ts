import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { validMetadata } from '@ticketing/fields';
import { newId } from '@ticketing/ids';
import type { PrismaClient } from '../../db';
import { checkEndpointUrl, type DestinationSettings } from '../../destinations/destination-policy';
import { ENDPOINTS_PER_TENANT, validEndpointDescription, validEnabledEvents, type WebhookEndpoint } from '../../domain/endpoint';
import { EndpointRepository } from '../../repositories/endpoint.repository';
import { newSigningSecret, type EndpointSecrets } from '../../secrets/endpoint-secrets';

export interface CreateEndpointCommand {
  url: string;
  enabled_events: string[];
  description: string;
  metadata: Record<string, string>;
}

/**
 * Creates an endpoint with a new signing secret, sealed, while the account has fewer than
 * ENDPOINTS_PER_TENANT in the mode. The caller opens the secret for the one
 * answer that shows it; a replay under the same Idempotency-Key finds the same sealed secret.
 */
export class CreateEndpointUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly secrets: EndpointSecrets,
    private readonly destinations: DestinationSettings,
  ) {}

  execute(tenant: Tenant, command: CreateEndpointCommand): Promise<WebhookEndpoint> {
    const id = newId('we');
    const fields = {
      url: checkEndpointUrl(command.url, tenant.mode, this.destinations).href,
      enabled_events: validEnabledEvents(command.enabled_events),
      description: validEndpointDescription(command.description),
      metadata: validMetadata(command.metadata),
      sealed_secret: this.secrets.seal(newSigningSecret(), id),
    };
    return this.prisma.$transaction(async (tx) => {
      const endpoints = new EndpointRepository(tx);
      if ((await endpoints.countForCreation(tenant)) >= ENDPOINTS_PER_TENANT) {
        throw new ApiError('endpoint_limit_reached', `An account has at most ${ENDPOINTS_PER_TENANT} webhook endpoints in each mode; delete one you no longer use first.`);
      }
      return endpoints.create(tenant, id, fields);
    });
  }
}
