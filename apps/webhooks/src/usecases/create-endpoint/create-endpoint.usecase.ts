import type { Tenant } from '@ticketing/auth';
import { validMetadata } from '@ticketing/fields';
import { newId } from '@ticketing/ids';
import type { PrismaClient } from '../../db';
import { checkEndpointUrl, type DestinationSettings } from '../../destinations/destination-policy';
import { validEndpointDescription, validEnabledEvents, type WebhookEndpoint } from '../../domain/endpoint';
import { EndpointRepository } from '../../repositories/endpoint.repository';
import { newSigningSecret, type EndpointSecrets } from '../../secrets/endpoint-secrets';

export interface CreateEndpointCommand {
  url: string;
  enabled_events: string[];
  description: string;
  metadata: Record<string, string>;
}

/**
 * Creates an endpoint with a new signing secret, sealed. The caller opens the secret for the one
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
    return this.prisma.$transaction((tx) => new EndpointRepository(tx).create(tenant, id, fields));
  }
}
