import type { catalogV1 } from '@ticketing/contracts';
import type { AsyncServiceImplementation } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import { ReserveInventoryUseCase } from '../usecases/reserve-inventory/reserve-inventory.usecase';
import { ReturnInventoryUseCase } from '../usecases/return-inventory/return-inventory.usecase';
import { SettleReservationUseCase } from '../usecases/settle-reservation/settle-reservation.usecase';
import { WithdrawReservationUseCase } from '../usecases/withdraw-reservation/withdraw-reservation.usecase';
import { toQuoteMessage } from './discount.messages';
import { fromReservationKindMessage, toInventoryReturnMessage, toReservationMessage } from './messages';

/** Transport only: decode, call one use case with the token's tenant, encode. */
export function inventoryGrpcHandlers(prisma: PrismaClient): AsyncServiceImplementation<catalogV1.InventoryServiceServer> {
  const reserve = new ReserveInventoryUseCase(prisma);
  const settle = new SettleReservationUseCase(prisma);
  const giveBack = new ReturnInventoryUseCase(prisma);
  const withdraw = new WithdrawReservationUseCase(prisma);
  return {
    reserveInventory: async (request, context) => {
      const reserved = await reserve.execute(context.tenant, { ...request, kind: fromReservationKindMessage(request.kind) });
      return { ...toReservationMessage(reserved), quote: reserved.quote ? toQuoteMessage(reserved.quote, context.tenant.mode) : undefined, waiting_room_enabled: reserved.waitingRoomEnabled };
    },
    commitReservation: async (request, context) => toReservationMessage(await settle.execute(context.tenant, request.reservation_id, 'committed')),
    releaseReservation: async (request, context) => toReservationMessage(await settle.execute(context.tenant, request.reservation_id, 'released')),
    withdrawReservation: async (request, context) => ({ units_returned: await withdraw.execute(context.tenant, { ...request, kind: fromReservationKindMessage(request.kind) }) }),
    returnInventory: async (request, context) =>
      toInventoryReturnMessage(await giveBack.execute(context.tenant, { id: request.return_id, reservation_id: request.reservation_id, quantity: request.quantity })),
  };
}
