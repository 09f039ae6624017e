import type { InternalClaims } from '@ticketing/auth';
import { ticketingV1 } from '@ticketing/contracts';
import { createGrpcClient, serviceCalls, type CallerOptions } from '@ticketing/grpc';

export function seatHoldsClientAt(address: string): ticketingV1.SeatHoldServiceClient {
  return createGrpcClient(ticketingV1.SeatHoldServiceClient, address);
}

/**
 * Ticketing's seat holds as orders use them (decision 0062): an order intent takes the buyer's
 * hold for its line of the hold's tier until the order's units are given back, and lets go of it
 * when the order is canceled or expires. Both idempotent by the line's issuance id.
 */
export class OrderSeatHolds {
  constructor(
    private readonly client: ticketingV1.SeatHoldServiceClient,
    private readonly options: Omit<CallerOptions, 'idempotency'>,
  ) {}

  /** The issuance id of the line that took the hold. */
  async take(claims: InternalClaims, request: { event_id: string; hold_id: string; lines: Array<{ tier_id: string; quantity: number; issuance_id: string }>; taken_until: Date }): Promise<string> {
    const taken = await serviceCalls(this.client, claims, this.options).takeSeatHoldForOrder({ ...request, taken_until: request.taken_until.toISOString() });
    return taken.issuance_id;
  }

  async letGo(claims: InternalClaims, holdId: string, issuanceId: string): Promise<void> {
    await serviceCalls(this.client, claims, this.options).letGoOfSeatHold({ hold_id: holdId, issuance_id: issuanceId });
  }
}
