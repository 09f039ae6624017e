import { tenantKey, type Tenant } from '@ticketing/auth';
import type { PrismaClient } from '../../db';
import { GroupCommit } from '@ticketing/db';
import { optionalIdParam, requiredIdParam } from '@ticketing/fields';
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
import type { CatalogDiscount } from '../../domain/discount';
import { EventRepository } from '../../repositories/event.repository';
import { ReservationRepository, type ReserveOutcome } from '../../repositories/reservation.repository';
import { TierRepository } from '../../repositories/tier.repository';
import { OrderPricing, type QuoteOrderResult } from '../quote-order/order-pricing';

export interface ReserveInventoryCommand {
  reservation_id: string;
  event_id: string;
  tier_id: string;
  quantity: number;
  kind: ReservationKind;
  ttl_seconds: number;
  /** A sale's buyer, for discounts with a per-customer limit; empty for a guest. */
  customer_id: string;
}

/**
 * A reservation, whether its event's waiting room was enabled when its units were held, and for
 * a sale the order's price then.
 */
export interface ReservedView extends ReservationView {
  waitingRoomEnabled: boolean;
  quote: QuoteOrderResult | null;
}

function heldReservation(tenant: Tenant, request: ReservationRequest, at: Date): CatalogReservation {
  const { id, event_id, tier_id, kind, quantity, expires_at } = request;
  return { id, mode: tenant.mode, event_id, tier_id, kind, quantity, status: 'held', expires_at, created_at: at, committed_at: null, released_at: null };
}

/** A reservation waiting to be taken with the others of its tier. */
interface PendingReservation {
  tenant: Tenant;
  request: ReservationRequest;
  at: Date;
}

/**
 * Holds units of a tier (decisions 0029, 0036): one statement records the reservation under the
 * caller's id and takes the units with a conditional update of the tier's row, or changes
 * nothing and answers why not. The reservations of a tier that arrive while its previous
 * statement runs go together in the next one (group commit), so a rush on one tier costs a
 * statement per batch, not per buyer. The same id again finds the reservation and answers with
 * it as it is now.
 */
export class ReserveInventoryUseCase {
  private readonly batches: GroupCommit<PendingReservation, ReserveOutcome>;
  private readonly pricing: OrderPricing;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.pricing = new OrderPricing(prisma);
    this.batches = new GroupCommit((_key, pending) => {
      const [{ tenant, request }] = pending as [PendingReservation];
      return new ReservationRepository(this.prisma).reserveAll(tenant, request.event_id, request.tier_id, pending);
    });
  }

  async execute(tenant: Tenant, command: ReserveInventoryCommand): Promise<ReservedView> {
    const at = this.clock();
    const customerId = optionalIdParam(command.customer_id, 'customer_id');
    const request: ReservationRequest = {
      id: requiredIdParam(command.reservation_id, 'reservation_id'),
      event_id: requiredIdParam(command.event_id, 'event_id'),
      tier_id: requiredIdParam(command.tier_id, 'tier_id'),
      kind: command.kind,
      quantity: validQuantity(command.quantity),
      expires_at: new Date(at.getTime() + validTtlSeconds(command.ttl_seconds) * 1000),
    };
    const tierKey = `${tenantKey(tenant)}/${request.event_id}/${request.tier_id}`;
    // A sale's automatic discounts depend on its tenant and instant alone: looked up while the units are held, not after.
    const automatic = request.kind === 'sale' ? this.pricing.automaticAt(tenant, at) : undefined;
    const outcome = await this.batches.run(tierKey, { tenant, request, at });
    switch (outcome.outcome) {
      case 'taken':
        return this.priced(tenant, { reservation: heldReservation(tenant, request, at), tier: outcome.tier, waitingRoomEnabled: outcome.waitingRoomEnabled }, customerId, at, automatic);
      case 'refused':
        throw reservationRefusal(request, outcome, at);
      case 'not_claimed':
        return this.priced(tenant, await this.earlierReservation(tenant, request, at), customerId, at, automatic);
    }
  }

  /** A sale's reservation with what its order costs at the tier's price now; a comp costs nothing to quote. */
  private async priced(tenant: Tenant, view: Omit<ReservedView, 'quote'>, customerId: string | null, at: Date, automatic: Promise<CatalogDiscount[]> | undefined): Promise<ReservedView> {
    const { reservation, tier } = view;
    if (reservation.kind !== 'sale') return { ...view, quote: null };
    const lines = [{ tier_id: tier.id, event_id: tier.event_id, quantity: reservation.quantity, unit_price: tier.price }];
    return { ...view, quote: await this.pricing.price(tenant, tier.event_id, { currency: tier.currency, lines, discountCode: null, customerId, segmentIds: new Set(), at }, automatic) };
  }

  /**
   * Nothing was claimed: the id is taken (by this request before, or another), or the event or
   * tier is not the tenant's. A reservation found answers with the event's waiting room as it is now.
   */
  private async earlierReservation(tenant: Tenant, request: ReservationRequest, at: Date): Promise<Omit<ReservedView, 'quote'>> {
    const [reservation, tier, event] = await Promise.all([
      new ReservationRepository(this.prisma).find(tenant, request.id),
      new TierRepository(this.prisma).findById(tenant, request.event_id, request.tier_id),
      new EventRepository(this.prisma).salesStanding(tenant, request.event_id),
    ]);
    if (!tier || !event) throw reservationRefusal(request, { tier, event }, at);
    if (!reservation) {
      throw new Error(`reservation id ${request.id} is taken outside tenant ${tenantKey(tenant)}; callers must choose unique ids`);
    }
    assertSameReservation(reservation, request);
    return { reservation, tier, waitingRoomEnabled: event.waitingRoomEnabled };
  }
}
