import type { Tenant } from '@ticketing/auth';
import type { catalogV1 } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { answerEach, type AsyncServiceImplementation } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import { ReserveInventoryUseCase } from '../usecases/reserve-inventory/reserve-inventory.usecase';
import { ReturnInventoryUseCase } from '../usecases/return-inventory/return-inventory.usecase';
import { SettleReservationUseCase } from '../usecases/settle-reservation/settle-reservation.usecase';
import { WithdrawReservationUseCase } from '../usecases/withdraw-reservation/withdraw-reservation.usecase';
import { toQuoteMessage } from './discount.messages';
import { fromReservationKindMessage, toInventoryReturnMessage, toReservationMessage } from './messages';

/** The most reservations one batch call may carry. */
export const MAX_RESERVATION_BATCH = 500;

function assertBatchSize(size: number, param: string): void {
  if (size > MAX_RESERVATION_BATCH) throw new ApiError('parameter_invalid', `A batch carries at most ${MAX_RESERVATION_BATCH} reservations; this one carried ${size}.`, { param });
}

/**
 * Transport only: decode, call one use case with the token's tenant, encode. A batch call runs
 * its items as their own calls would, at the same moment, so the use cases' group commits take
 * them in one statement per tier (reserve) or tenant (commit).
 */
export function inventoryGrpcHandlers(prisma: PrismaClient): AsyncServiceImplementation<catalogV1.InventoryServiceServer> {
  const reserve = new ReserveInventoryUseCase(prisma);
  const settle = new SettleReservationUseCase(prisma);
  const giveBack = new ReturnInventoryUseCase(prisma);
  const withdraw = new WithdrawReservationUseCase(prisma);
  const reserveOne = async (tenant: Tenant, request: catalogV1.ReserveInventoryRequest): Promise<catalogV1.Reservation> => {
    const reserved = await reserve.execute(tenant, { ...request, kind: fromReservationKindMessage(request.kind) });
    return { ...toReservationMessage(reserved), quote: reserved.quote ? toQuoteMessage(reserved.quote, tenant.mode) : undefined, waiting_room_enabled: reserved.waitingRoomEnabled };
  };
  const commitOne = async (tenant: Tenant, reservationId: string) => toReservationMessage(await settle.execute(tenant, reservationId, 'committed'));
  return {
    reserveInventory: (request, context) => reserveOne(context.tenant, request),
    reserveInventoryBatch: async (request, context) => {
      assertBatchSize(request.reservations.length, 'reservations');
      return answerEach('reservation', request.reservations, (reservation) => reserveOne(context.tenant, reservation));
    },
    commitReservation: (request, context) => commitOne(context.tenant, request.reservation_id),
    commitReservationBatch: async (request, context) => {
      assertBatchSize(request.reservation_ids.length, 'reservation_ids');
      return answerEach('reservation', request.reservation_ids, (id) => commitOne(context.tenant, id));
    },
    releaseReservation: async (request, context) => toReservationMessage(await settle.execute(context.tenant, request.reservation_id, 'released')),
    withdrawReservation: async (request, context) => ({ units_returned: await withdraw.execute(context.tenant, { ...request, kind: fromReservationKindMessage(request.kind) }) }),
    returnInventory: async (request, context) =>
      toInventoryReturnMessage(await giveBack.execute(context.tenant, { id: request.return_id, reservation_id: request.reservation_id, quantity: request.quantity })),
  };
}
