import type { catalogV1 } from '@ticketing/contracts';
import type { AsyncServiceImplementation } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import { ReserveInventoryUseCase } from '../usecases/reserve-inventory/reserve-inventory.usecase';
import { ReturnInventoryUseCase } from '../usecases/return-inventory/return-inventory.usecase';
import { SettleReservationUseCase } from '../usecases/settle-reservation/settle-reservation.usecase';
import { WithdrawReservationUseCase } from '../usecases/withdraw-reservation/withdraw-reservation.usecase';
import { toQuoteMessage } from './discount.messages';
import { fromReservationKindMessage, toInventoryReturnMessage, toReservationMessage } from './messages';

/** The RPCs whose calls also arrive together (decisions 0054, 0058): ReserveInventoryTogether, CommitReservationTogether. */
export const INVENTORY_CALLS_TOGETHER = ['reserveInventory', 'commitReservation'] as const;

/**
 * Transport only: decode, call one use case with the token's tenant, encode. The calls that
 * arrive together run at the same moment, so the use cases' group commits take them in one
 * statement per tier (reserve) or tenant (commit).
 */
export function inventoryGrpcHandlers(
  prisma: PrismaClient,
): Omit<AsyncServiceImplementation<catalogV1.InventoryServiceServer>, `${(typeof INVENTORY_CALLS_TOGETHER)[number]}Together`> {
  const reserve = new ReserveInventoryUseCase(prisma);
  const settle = new SettleReservationUseCase(prisma);
  const giveBack = new ReturnInventoryUseCase(prisma);
  const withdraw = new WithdrawReservationUseCase(prisma);
  return {
    reserveInventory: async (request, context) => {
      const reserved = await reserve.execute(context.tenant, { ...request, kind: fromReservationKindMessage(request.kind) });
      const quote = reserved.quote ? toQuoteMessage(reserved.quote, context.tenant.mode) : undefined;
      return { ...toReservationMessage(reserved), quote, waiting_room_enabled: reserved.waitingRoomEnabled };
    },
    commitReservation: async (request, context) => toReservationMessage(await settle.execute(context.tenant, request.reservation_id, 'committed')),
    releaseReservation: async (request, context) => toReservationMessage(await settle.execute(context.tenant, request.reservation_id, 'released')),
    withdrawReservation: async (request, context) => ({ units_returned: await withdraw.execute(context.tenant, { ...request, kind: fromReservationKindMessage(request.kind) }) }),
    returnInventory: async (request, context) =>
      toInventoryReturnMessage(await giveBack.execute(context.tenant, { id: request.return_id, reservation_id: request.reservation_id, quantity: request.quantity })),
  };
}
