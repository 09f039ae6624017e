import { DELIVERY_STATUSES, type DeliveryStatus, type webhooksV1 } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import type { AsyncServiceImplementation } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import type { SignedDelivery } from '../delivery/signed-delivery';
import type { DeliveryFilters } from '../domain/delivery';
import { ListDeliveriesUseCase } from '../usecases/list-deliveries/list-deliveries.usecase';
import { PingEndpointUseCase } from '../usecases/ping-endpoint/ping-endpoint.usecase';
import { ReplayDeliveryUseCase } from '../usecases/replay-delivery/replay-delivery.usecase';
import { toDeliveryMessage } from './messages';

/** Transport only: decode, call one use case with the token's tenant, encode. */
export function deliveryGrpcHandlers(prisma: PrismaClient, delivery: SignedDelivery): AsyncServiceImplementation<webhooksV1.WebhookDeliveryServiceServer> {
  const listDeliveries = new ListDeliveriesUseCase(prisma);
  const replayDelivery = new ReplayDeliveryUseCase(prisma, delivery);
  const pingEndpoint = new PingEndpointUseCase(prisma, delivery);
  return {
    listDeliveries: async (request, context) => {
      const page = await listDeliveries.execute(context.tenant, filtersOf(request), request.page);
      return { data: page.data.map(toDeliveryMessage), has_more: page.has_more };
    },
    replayDelivery: async (request, context) => toDeliveryMessage(await replayDelivery.execute(context.tenant, request.id)),
    pingEndpoint: async (request, context) => toDeliveryMessage(await pingEndpoint.execute(context.tenant, request.endpoint_id)),
  };
}

function filtersOf(request: webhooksV1.ListDeliveriesRequest): DeliveryFilters {
  if (request.status !== '' && !DELIVERY_STATUSES.includes(request.status as DeliveryStatus)) {
    throw new ApiError('parameter_invalid', `status must be one of ${DELIVERY_STATUSES.join(', ')}.`, { param: 'status' });
  }
  return {
    ...(request.endpoint_id === '' ? {} : { endpoint_id: request.endpoint_id }),
    ...(request.status === '' ? {} : { status: request.status as DeliveryStatus }),
    ...(request.type === '' ? {} : { type: request.type }),
  };
}
