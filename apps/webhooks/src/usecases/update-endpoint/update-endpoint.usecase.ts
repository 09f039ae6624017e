import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { validMetadata } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import { checkEndpointUrl, type DestinationSettings } from '../../destinations/destination-policy';
import { validEndpointDescription, validEnabledEvents, type WebhookEndpoint } from '../../domain/endpoint';
import { EndpointRepository, type EndpointChanges } from '../../repositories/endpoint.repository';

/** Only the fields given change; `undefined` leaves one as it is. */
export interface UpdateEndpointCommand {
  id: string;
  url?: string;
  enabled_events?: string[];
  /** An empty text clears it. */
  description?: string;
  /** Replaces the whole map. */
  metadata?: Record<string, string>;
  /** true disables the endpoint; false enables it again and forgets its failures. */
  disabled?: boolean;
}

export class UpdateEndpointUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly destinations: DestinationSettings,
  ) {}

  execute(tenant: Tenant, command: UpdateEndpointCommand): Promise<WebhookEndpoint> {
    const changes: EndpointChanges = {
      ...(command.url === undefined ? {} : { url: checkEndpointUrl(command.url, tenant.mode, this.destinations).href }),
      ...(command.enabled_events === undefined ? {} : { enabled_events: validEnabledEvents(command.enabled_events) }),
      ...(command.description === undefined ? {} : { description: validEndpointDescription(command.description) }),
      ...(command.metadata === undefined ? {} : { metadata: validMetadata(command.metadata) }),
      // Enabled again, an endpoint starts a new failing streak from its next failure.
      ...(command.disabled === undefined ? {} : command.disabled ? { disabled_reason: 'by_request' } : { disabled_reason: null, failing_since: null }),
    };
    if (Object.keys(changes).length === 0) throw new ApiError('parameter_missing', 'Give at least one of url, enabled_events, description, metadata, disabled to change.');
    return this.prisma.$transaction(async (tx) => {
      const endpoint = await new EndpointRepository(tx).update(tenant, command.id, changes);
      if (!endpoint) throw ApiError.resourceMissing('webhook_endpoint', command.id);
      return endpoint;
    });
  }
}
