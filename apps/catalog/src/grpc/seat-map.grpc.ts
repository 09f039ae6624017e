import type { catalogV1 } from '@ticketing/contracts';
import type { AsyncServiceImplementation } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import { GetSeatMapUseCase } from '../usecases/get-seat-map/get-seat-map.usecase';
import { LocateSeatsUseCase } from '../usecases/locate-seats/locate-seats.usecase';
import { SetSeatMapUseCase } from '../usecases/set-seat-map/set-seat-map.usecase';
import { toSeatMapMessage } from './messages';

/** Transport only: decode, call one use case with the token's tenant, encode. */
export function seatMapGrpcHandlers(prisma: PrismaClient): AsyncServiceImplementation<catalogV1.SeatMapServiceServer> {
  const setSeatMap = new SetSeatMapUseCase(prisma);
  const getSeatMap = new GetSeatMapUseCase(prisma);
  const locateSeats = new LocateSeatsUseCase(prisma);
  return {
    setSeatMap: async (request, context) =>
      toSeatMapMessage(request.event_id, context.tenant.mode === 'live', await setSeatMap.execute(context.tenant, request.event_id, request.sections)),
    getSeatMap: async (request, context) => toSeatMapMessage(request.event_id, context.tenant.mode === 'live', await getSeatMap.execute(context.tenant, request.event_id)),
    locateSeats: async (request, context) => {
      const { seats, waitingRoomEnabled } = await locateSeats.execute(context.tenant, request.event_id, request.seat_ids, request.for_sale ? 'sale' : 'comp');
      return { seats, waiting_room_enabled: waitingRoomEnabled };
    },
  };
}
