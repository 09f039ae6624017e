import type { Tenant } from '@ticketing/auth';
import type { PrismaClient } from '../../db';
import type { EventStatus } from '../../domain/event-status';
import { requiredIdParam } from '@ticketing/fields';
import {
  assertSameReservation,
  reservationRefusal,
  validQuantity,
  validTtlSeconds,
  type CatalogReservation,
  type ReservationKind,
  type ReservationRequest,
  type ReservationView,
} from '../../domain/reservation';
import type { CatalogTier } from '../../domain/tier';
import { EventRepository } from '../../repositories/event.repository';
import { ReservationRepository } from '../../repositories/reservation.repository';
import { TierRepository } from '../../repositories/tier.repository';

export interface ReserveInventoryCommand {
  reservation_id: string;
  event_id: string;
  tier_id: string;
  quantity: number;
  kind: ReservationKind;
  ttl_seconds: number;
}

/** Thrown inside the transaction to roll the claim back when the tier refused the units. */
class NothingTaken extends Error {}

function heldReservation(tenant: Tenant, request: ReservationRequest, at: Date): CatalogReservation {
  const { id, event_id, tier_id, kind, quantity, expires_at } = request;
  return { id, mode: tenant.mode, event_id, tier_id, kind, quantity, status: 'held', expires_at, created_at: at, committed_at: null, released_at: null };
}

/**
 * Holds units of a tier (decision 0029). In one transaction: record the reservation under the
 * caller's id, then take the units with one conditional update of the tier's row; a refusal
 * rolls both back. The same id again finds the reservation and answers with it as it is now.
 */
export class ReserveInventoryUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(tenant: Tenant, command: ReserveInventoryCommand): Promise<ReservationView> {
    const at = this.clock();
    const request: ReservationRequest = {
      id: requiredIdParam(command.reservation_id, 'reservation_id'),
      event_id: requiredIdParam(command.event_id, 'event_id'),
      tier_id: requiredIdParam(command.tier_id, 'tier_id'),
      kind: command.kind,
      quantity: validQuantity(command.quantity),
      expires_at: new Date(at.getTime() + validTtlSeconds(command.ttl_seconds) * 1000),
    };
    try {
      const taken = await this.prisma.$transaction(async (tx) => {
        const reservations = new ReservationRepository(tx);
        if (!(await reservations.claim(tenant, request, at))) return null;
        const tier = await reservations.take(tenant, request, at);
        if (!tier) throw new NothingTaken();
        return { reservation: heldReservation(tenant, request, at), tier };
      });
      return taken ?? (await this.earlierReservation(tenant, request, at));
    } catch (error) {
      // Explained after the rollback, so the refusal's reads do not wait for a second connection.
      if (error instanceof NothingTaken) throw reservationRefusal(request, await this.tierAndEventStatus(tenant, request), at);
      throw error;
    }
  }

  /** The claim wrote nothing: the id is taken (by this request before, or another), or the tier is not the tenant's. */
  private async earlierReservation(tenant: Tenant, request: ReservationRequest, at: Date): Promise<ReservationView> {
    const reservation = await new ReservationRepository(this.prisma).find(tenant, request.id);
    const found = await this.tierAndEventStatus(tenant, request);
    if (!found) throw reservationRefusal(request, null, at);
    if (!reservation) {
      throw new Error(`reservation id ${request.id} is taken outside tenant ${tenant.accountId}/${tenant.mode}; callers must choose unique ids`);
    }
    assertSameReservation(reservation, request);
    return { reservation, tier: found.tier };
  }

  /** The tier and its event's status; null when the tenant has no such tier in that event. */
  private async tierAndEventStatus(tenant: Tenant, request: ReservationRequest): Promise<{ tier: CatalogTier; eventStatus: EventStatus } | null> {
    const [tier, eventStatus] = await Promise.all([
      new TierRepository(this.prisma).findById(tenant, request.event_id, request.tier_id),
      new EventRepository(this.prisma).statusOf(tenant, request.event_id),
    ]);
    return tier && eventStatus ? { tier, eventStatus } : null;
  }
}
