import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { seatHoldUnavailable, type TicketingSeatHold } from '../../domain/seat-hold';
import { SeatHoldRepository } from '../../repositories/seat-hold.repository';

export interface OrderLineToSeat {
  tier_id: string;
  quantity: number;
  issuance_id: string;
}

/**
 * Seat holds in payments' order intents (decision 0062): the order takes the hold for its line of
 * the hold's tier, whose issuance sells the seats once the intent is paid (then the hold is bound
 * to it as any issuance's is), and lets go of it when the order is canceled or expires unpaid.
 */
export class OrderSeatHoldUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  /** The issuance of the line that took the hold. */
  async take(tenant: Tenant, request: { event_id: string; hold_id: string; lines: OrderLineToSeat[]; taken_until: string }): Promise<string> {
    const holds = new SeatHoldRepository(this.prisma);
    const hold = await holds.find(tenant, request.hold_id, request.event_id);
    if (!hold) throw ApiError.resourceMissing('seat hold', request.hold_id, 'order.seat_hold_id');
    const now = new Date();
    const index = lineOfHold(hold, request.lines);
    const line = request.lines[index]!;
    if (hold.taken_by === line.issuance_id) return line.issuance_id;
    if (hold.status !== 'active' || hold.issuance_id !== null || hold.taken_by !== null || hold.expires_at <= now) throw seatHoldUnavailable(hold, now, 'order.seat_hold_id');
    if (!(await holds.takeUntil(tenant, hold.id, line.issuance_id, now, new Date(request.taken_until)))) {
      throw seatHoldUnavailable((await holds.find(tenant, hold.id))!, now, 'order.seat_hold_id');
    }
    return line.issuance_id;
  }

  async letGo(tenant: Tenant, holdId: string, issuanceId: string): Promise<TicketingSeatHold> {
    const holds = new SeatHoldRepository(this.prisma);
    await holds.letGo(tenant, holdId, issuanceId);
    const hold = await holds.find(tenant, holdId);
    if (!hold) throw ApiError.resourceMissing('seat hold', holdId);
    return hold;
  }
}

/** The order's line that sells the hold's seats: of their tier, for exactly as many tickets, and a hold made for a sale. */
function lineOfHold(hold: TicketingSeatHold, lines: readonly OrderLineToSeat[]): number {
  if (hold.purpose === 'comp') throw new ApiError('parameter_invalid', `Seat hold '${hold.id}' is held for comps; an order needs a hold made for a sale.`, { param: 'order.seat_hold_id' });
  const tierId = hold.seats[0]!.tier_id;
  const index = lines.findIndex((line) => line.tier_id === tierId);
  if (index === -1) throw new ApiError('parameter_invalid', `Seat hold '${hold.id}' holds seats of tier '${tierId}', which the order does not buy: add it to order.items.`, { param: 'order.seat_hold_id' });
  if (lines[index]!.quantity !== hold.seats.length) {
    throw new ApiError('parameter_invalid', `order.items[${index}].quantity must be ${hold.seats.length}, the number of seats seat hold '${hold.id}' holds.`, { param: `order.items[${index}].quantity` });
  }
  return index;
}
