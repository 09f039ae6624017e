import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import { returnRefusal, validQuantity, type ReturnRequest, type ReturnView } from '../../domain/reservation';
import { ReservationRepository } from '../../repositories/reservation.repository';

/**
 * Gives sold units back to their tier (decision 0032): a refunded or revoked ticket, the old tier
 * of an upgrade. One statement; the same return id again answers the return as made, so a caller
 * that lost the reply retries safely.
 */
export class ReturnInventoryUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(tenant: Tenant, input: ReturnRequest): Promise<ReturnView> {
    const request = { id: requiredIdParam(input.id, 'return_id'), reservation_id: requiredIdParam(input.reservation_id, 'reservation_id'), quantity: validQuantity(input.quantity) };
    const outcome = await new ReservationRepository(this.prisma).returnUnits(tenant, request, this.clock());
    switch (outcome.outcome) {
      case 'returned':
      case 'already_returned':
        return { request, reservationReturned: outcome.returned, tier: outcome.tier };
      case 'not_committed':
      case 'exceeds':
        throw returnRefusal(request, outcome.reservationStatus, outcome.returned, outcome.outcome);
      case 'reservation_missing':
        throw new ApiError('resource_missing', `No such reservation: '${request.reservation_id}'.`, { param: 'reservation_id' });
      case 'id_reused':
        throw new ApiError('idempotency_key_reused', `Return '${request.id}' was made for another reservation or quantity; use a new return id for another return.`, {
          param: 'return_id',
        });
    }
  }
}
