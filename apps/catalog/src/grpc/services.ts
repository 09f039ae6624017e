import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { catalogV1 } from '@ticketing/contracts';
import { idempotentWrites } from '@ticketing/db';
import { currentIdempotentCall, implementService, type GrpcServerOptions } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import { discountGrpcHandlers } from './discount.grpc';
import { eventGrpcHandlers } from './event.grpc';
import { inventoryGrpcHandlers } from './inventory.grpc';
import { organizationGrpcHandlers } from './organization.grpc';
import { seatMapGrpcHandlers } from './seat-map.grpc';
import { tierGrpcHandlers } from './tier.grpc';

/** Every gRPC service catalog serves, one per aggregate; writes made under an Idempotency-Key are recorded with their result. */
export function catalogGrpcServices(
  client: PrismaClient,
  options: GrpcServerOptions,
): Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }> {
  const prisma = idempotentWrites(client, currentIdempotentCall);
  return [
    { definition: catalogV1.EventServiceService, implementation: implementService<catalogV1.EventServiceServer>(eventGrpcHandlers(prisma), options) },
    {
      definition: catalogV1.OrganizationServiceService,
      implementation: implementService<catalogV1.OrganizationServiceServer>(organizationGrpcHandlers(prisma), options),
    },
    { definition: catalogV1.TierServiceService, implementation: implementService<catalogV1.TierServiceServer>(tierGrpcHandlers(prisma), options) },
    { definition: catalogV1.SeatMapServiceService, implementation: implementService<catalogV1.SeatMapServiceServer>(seatMapGrpcHandlers(prisma), options) },
    { definition: catalogV1.InventoryServiceService, implementation: implementService<catalogV1.InventoryServiceServer>(inventoryGrpcHandlers(prisma), options) },
    { definition: catalogV1.DiscountServiceService, implementation: implementService<catalogV1.DiscountServiceServer>(discountGrpcHandlers(prisma), options) },
  ];
}
