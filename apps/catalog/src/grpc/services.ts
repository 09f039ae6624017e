import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { catalogV1 } from '@ticketing/contracts';
import { idempotentWrites } from '@ticketing/db';
import { currentIdempotentCall, implementService, type AsyncServiceImplementation, type CallContext, type GrpcServerOptions } from '@ticketing/grpc';
import { withRequestId } from '@ticketing/kafka';
import type { PrismaClient } from '../db';
import { discountGrpcHandlers } from './discount.grpc';
import { eventGrpcHandlers } from './event.grpc';
import { organizationGrpcHandlers } from './organization.grpc';
import { seatMapGrpcHandlers } from './seat-map.grpc';
import { tierGrpcHandlers } from './tier.grpc';

type Handler = (request: unknown, context: CallContext) => Promise<unknown>;

/** Every event a call enqueues carries the call's request id (docs/decisions/0019). */
function implementWithRequestId<TServer extends UntypedServiceImplementation>(handlers: AsyncServiceImplementation<TServer>, options: GrpcServerOptions): TServer {
  const stamped = Object.fromEntries(
    Object.entries(handlers as Record<string, Handler>).map(([rpc, handler]): [string, Handler] => [
      rpc,
      (request, context) => withRequestId(context.requestId, () => handler(request, context)),
    ]),
  );
  return implementService<TServer>(stamped as AsyncServiceImplementation<TServer>, options);
}

/** Every gRPC service catalog serves, one per aggregate; writes made under an Idempotency-Key are recorded with their result. */
export function catalogGrpcServices(
  client: PrismaClient,
  options: GrpcServerOptions,
): Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }> {
  const prisma = idempotentWrites(client, currentIdempotentCall);
  return [
    { definition: catalogV1.EventServiceService, implementation: implementWithRequestId<catalogV1.EventServiceServer>(eventGrpcHandlers(prisma), options) },
    {
      definition: catalogV1.OrganizationServiceService,
      implementation: implementWithRequestId<catalogV1.OrganizationServiceServer>(organizationGrpcHandlers(prisma), options),
    },
    { definition: catalogV1.TierServiceService, implementation: implementWithRequestId<catalogV1.TierServiceServer>(tierGrpcHandlers(prisma), options) },
    { definition: catalogV1.SeatMapServiceService, implementation: implementWithRequestId<catalogV1.SeatMapServiceServer>(seatMapGrpcHandlers(prisma), options) },
    { definition: catalogV1.DiscountServiceService, implementation: implementWithRequestId<catalogV1.DiscountServiceServer>(discountGrpcHandlers(prisma), options) },
  ];
}
