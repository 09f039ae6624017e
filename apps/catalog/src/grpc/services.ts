import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { catalogV1 } from '@ticketing/contracts';
import { implementService, type GrpcServerOptions } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import { eventGrpcHandlers } from './event.grpc';

/** Every gRPC service catalog serves, one per aggregate. */
export function catalogGrpcServices(
  prisma: PrismaClient,
  options: GrpcServerOptions,
): Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }> {
  return [
    { definition: catalogV1.EventServiceService, implementation: implementService<catalogV1.EventServiceServer>(eventGrpcHandlers(prisma), options) },
  ];
}
