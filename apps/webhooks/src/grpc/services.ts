import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { webhooksV1 } from '@ticketing/contracts';
import { idempotentWrites } from '@ticketing/db';
import { currentIdempotentCall, implementService, type GrpcServerOptions } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import type { SignedDelivery } from '../delivery/signed-delivery';
import type { DestinationSettings } from '../destinations/destination-policy';
import type { EndpointSecrets } from '../secrets/endpoint-secrets';
import { deliveryGrpcHandlers } from './delivery.grpc';
import { endpointGrpcHandlers } from './endpoint.grpc';

/** Every gRPC service the webhooks service serves; writes made under an Idempotency-Key are recorded with their result. */
export function webhooksGrpcServices(
  client: PrismaClient,
  secrets: EndpointSecrets,
  destinations: DestinationSettings,
  delivery: SignedDelivery,
  options: GrpcServerOptions,
): Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }> {
  const prisma = idempotentWrites(client, currentIdempotentCall);
  return [
    {
      definition: webhooksV1.WebhookEndpointServiceService,
      implementation: implementService<webhooksV1.WebhookEndpointServiceServer>(endpointGrpcHandlers(prisma, secrets, destinations), options),
    },
    {
      definition: webhooksV1.WebhookDeliveryServiceService,
      implementation: implementService<webhooksV1.WebhookDeliveryServiceServer>(deliveryGrpcHandlers(prisma, delivery), options),
    },
  ];
}
