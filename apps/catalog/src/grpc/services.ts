import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { catalogV1 } from '@ticketing/contracts';
import { idempotentWrites } from '@ticketing/db';
import { currentIdempotentCall, implementService, type GrpcServerOptions } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import { announceWrites, type CatalogChanges } from '../reads/announce-writes';
import { discountGrpcHandlers } from './discount.grpc';
import { eventGrpcHandlers } from './event.grpc';
import { INVENTORY_CALLS_TOGETHER, inventoryGrpcHandlers } from './inventory.grpc';
import { organizationGrpcHandlers } from './organization.grpc';
import { seatMapGrpcHandlers } from './seat-map.grpc';
import { tierGrpcHandlers } from './tier.grpc';

/**
 * Every gRPC service catalog serves, one per aggregate; writes made under an Idempotency-Key are
 * recorded with their result, and every RPC but the reads listed here tells `changes` of its
 * tenant before it answers, so readers that keep catalog's answers drop them (decision 0051).
 */
export function catalogGrpcServices(
  client: PrismaClient,
  options: GrpcServerOptions,
  changes: CatalogChanges,
): Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }> {
  const prisma = idempotentWrites(client, currentIdempotentCall);
  return [
    {
      definition: catalogV1.EventServiceService,
      implementation: implementService<catalogV1.EventServiceServer>(announceWrites(eventGrpcHandlers(prisma), ['getEvent', 'listEvents', 'listSimilarEvents'], changes), options),
    },
    {
      definition: catalogV1.OrganizationServiceService,
      implementation: implementService<catalogV1.OrganizationServiceServer>(
        announceWrites(organizationGrpcHandlers(prisma), ['getOrganization', 'listOrganizations'], changes),
        options,
      ),
    },
    { definition: catalogV1.TierServiceService, implementation: implementService<catalogV1.TierServiceServer>(announceWrites(tierGrpcHandlers(prisma), ['listTiers'], changes), options) },
    {
      definition: catalogV1.SeatMapServiceService,
      implementation: implementService<catalogV1.SeatMapServiceServer>(announceWrites(seatMapGrpcHandlers(prisma), ['getSeatMap'], changes), options),
    },
    {
      definition: catalogV1.InventoryServiceService,
      implementation: implementService<catalogV1.InventoryServiceServer, (typeof INVENTORY_CALLS_TOGETHER)[number]>(
        announceWrites(inventoryGrpcHandlers(prisma), [], changes),
        options,
        INVENTORY_CALLS_TOGETHER,
      ),
    },
    {
      definition: catalogV1.DiscountServiceService,
      implementation: implementService<catalogV1.DiscountServiceServer>(
        announceWrites(discountGrpcHandlers(prisma), ['getDiscount', 'listDiscounts', 'listDiscountTriggers', 'quoteOrder'], changes),
        options,
      ),
    },
  ];
}
