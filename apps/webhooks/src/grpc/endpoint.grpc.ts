import type { webhooksV1 } from '@ticketing/contracts';
import type { AsyncServiceImplementation } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import type { DestinationSettings } from '../destinations/destination-policy';
import type { WebhookEndpoint } from '../domain/endpoint';
import type { EndpointSecrets } from '../secrets/endpoint-secrets';
import { CreateEndpointUseCase } from '../usecases/create-endpoint/create-endpoint.usecase';
import { DeleteEndpointUseCase } from '../usecases/delete-endpoint/delete-endpoint.usecase';
import { GetEndpointUseCase } from '../usecases/get-endpoint/get-endpoint.usecase';
import { ListEndpointsUseCase } from '../usecases/list-endpoints/list-endpoints.usecase';
import { RotateEndpointSecretUseCase } from '../usecases/rotate-endpoint-secret/rotate-endpoint-secret.usecase';
import { UpdateEndpointUseCase } from '../usecases/update-endpoint/update-endpoint.usecase';
import { toEndpointMessage } from './messages';

/** Transport only: decode, call one use case with the token's tenant, encode. */
export function endpointGrpcHandlers(
  prisma: PrismaClient,
  secrets: EndpointSecrets,
  destinations: DestinationSettings,
): AsyncServiceImplementation<webhooksV1.WebhookEndpointServiceServer> {
  const createEndpoint = new CreateEndpointUseCase(prisma, secrets, destinations);
  const getEndpoint = new GetEndpointUseCase(prisma);
  const listEndpoints = new ListEndpointsUseCase(prisma);
  const updateEndpoint = new UpdateEndpointUseCase(prisma, destinations);
  const deleteEndpoint = new DeleteEndpointUseCase(prisma);
  const rotateSecret = new RotateEndpointSecretUseCase(prisma, secrets);
  /** The answers that show the (new) secret: it is opened here, never stored or recorded in clear. */
  const withSecret = (endpoint: WebhookEndpoint) => toEndpointMessage(endpoint, secrets.open(endpoint.sealed_secret, endpoint.id));
  return {
    createEndpoint: async (request, context) => withSecret(await createEndpoint.execute(context.tenant, request)),
    getEndpoint: async (request, context) => toEndpointMessage(await getEndpoint.execute(context.tenant, request.id)),
    listEndpoints: async (request, context) => {
      const page = await listEndpoints.execute(context.tenant, request.page);
      return { data: page.data.map((endpoint) => toEndpointMessage(endpoint)), has_more: page.has_more };
    },
    updateEndpoint: async (request, context) =>
      toEndpointMessage(
        await updateEndpoint.execute(context.tenant, {
          id: request.id,
          url: request.url,
          enabled_events: request.enabled_events_set ? request.enabled_events : undefined,
          description: request.description,
          metadata: request.metadata_set ? request.metadata : undefined,
          disabled: request.disabled,
        }),
      ),
    deleteEndpoint: async (request, context) => {
      await deleteEndpoint.execute(context.tenant, request.id);
      return { id: request.id };
    },
    rotateEndpointSecret: async (request, context) => withSecret(await rotateSecret.execute(context.tenant, request.id)),
  };
}
