import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { tenantKey, type Tenant } from '@ticketing/auth';
import { catalogV1 } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { implementService, type AsyncServiceImplementation, type CallContext, type GrpcServerOptions } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';

interface DoubleTier {
  tenant: string;
  tier: catalogV1.Tier;
}

/** A discount with a code: `amountOff` off an order, for at most `maxRedemptions` orders. */
interface DoubleCodeDiscount {
  id: string;
  code: string;
  amountOff: number;
  maxRedemptions: number;
  /** The orders counted against it. */
  orders: Set<string>;
}

/**
 * Catalog's inventory and prices in memory, held to the contract of inventory.proto and
 * discounts.proto: a sale's reservation is priced at its tier's price (less `customerDiscount`
 * for a known customer; QuoteOrder also takes a code discount's amount off), a tier never sells
 * past its capacity nor a discount past its limit, and every reservation and redemption call is
 * idempotent by its id. (Catalog's own tests hold the real service to the same rules
 * against PostgreSQL; the end-to-end suite runs the two together.)
 */
export class CatalogDouble {
  private readonly tiers = new Map<string, DoubleTier>();
  private readonly reservations = new Map<string, { tenant: string; reservation: catalogV1.Reservation }>();
  /** Return ids already applied: a repeated return gives nothing back again. */
  private readonly returns = new Set<string>();
  /** Taken off the order of a known customer, as a discount limited per customer would: a guest pays full price. */
  customerDiscount = 0;
  /** Reservations asked for, alone or in a batch, refused ones included. */
  reserveCalls = 0;
  /** ReserveInventoryTogether calls received. */
  reserveTogetherCalls = 0;
  /** CommitReservationTogether calls received. */
  commitTogetherCalls = 0;
  /** Each event's seats, by seat id, with the tier each sells under. */
  private readonly seats = new Map<string, Map<string, string>>();
  private readonly codeDiscounts = new Map<string, DoubleCodeDiscount>();
  /** Events whose waiting room is enabled: their reservations say so. */
  private readonly roomsEnabled = new Set<string>();
  /** Events canceled in catalog: GetEvent says so. */
  private readonly canceled = new Set<string>();

  /** Cancels the event in catalog only, as a PATCH would before ticketing hears of it. */
  cancelEvent(eventId: string): void {
    this.canceled.add(eventId);
  }

  /** Enables the event's waiting room, as a PATCH of the event would in catalog. */
  enableWaitingRoom(eventId: string): void {
    this.roomsEnabled.add(eventId);
  }

  /** A discount with a code (matched case-insensitively); answers its id. */
  addCodeDiscount(code: string, amountOff: number, maxRedemptions: number): string {
    const id = newId('dsc');
    this.codeDiscounts.set(code.toUpperCase(), { id, code: code.toUpperCase(), amountOff, maxRedemptions, orders: new Set() });
    return id;
  }

  /** How many orders count against the discount now. */
  redemptions(discountId: string): number {
    return this.discountById(discountId).orders.size;
  }

  /** A tier on sale in a new event of `tenant`, or in `eventId`. */
  addTier(tenant: Tenant, fields: { price: number; capacity: number; currency?: string; rank?: number; eventId?: string }): { eventId: string; tierId: string } {
    const eventId = fields.eventId ?? newId('evt');
    const tierId = newId('tier');
    const now = new Date().toISOString();
    this.tiers.set(tierId, {
      tenant: tenantKey(tenant),
      tier: {
        id: tierId,
        livemode: tenant.mode === 'live',
        event_id: eventId,
        name: 'GA',
        price: fields.price,
        currency: fields.currency ?? 'EUR',
        capacity: fields.capacity,
        held: 0,
        sold: 0,
        sales_start_at: '',
        sales_end_at: '',
        min_per_order: 1,
        max_per_order: 0,
        seated: false,
        rank: fields.rank ?? 0,
        created_at: now,
        updated_at: now,
      },
    });
    return { eventId, tierId };
  }

  /** Makes the tier seated and gives its event a seat map: `rows` rows of `perRow` seats in section "S", all of the tier. */
  /** Maps seats `<section>:<row>:<seat>` of the event to the tier, beside any it already has. */
  addSeats(eventId: string, tierId: string, rows: number, perRow: number, section = 'S'): string[] {
    this.tiers.get(tierId)!.tier.seated = true;
    const seats = this.seats.get(eventId) ?? new Map<string, string>();
    const added: string[] = [];
    for (let row = 1; row <= rows; row++) for (let seat = 1; seat <= perRow; seat++) added.push(`${section}:${row}:${seat}`);
    for (const seatId of added) seats.set(seatId, tierId);
    this.seats.set(eventId, seats);
    return added;
  }

  counters(tierId: string): { held: number; sold: number } {
    const { held, sold } = this.tiers.get(tierId)!.tier;
    return { held, sold };
  }

  services(options: GrpcServerOptions): Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }> {
    return [
      { definition: catalogV1.InventoryServiceService, implementation: this.inventoryService(options) },
      // Only GetEvent, of the events the double has tiers in: the other event RPCs answer UNIMPLEMENTED.
      {
        definition: catalogV1.EventServiceService,
        implementation: implementService<catalogV1.EventServiceServer>(
          { getEvent: async (request: catalogV1.GetEventRequest, context: CallContext) => this.eventOf(request.id, context) } as Partial<
            AsyncServiceImplementation<catalogV1.EventServiceServer>
          > as AsyncServiceImplementation<catalogV1.EventServiceServer>,
          options,
        ),
      },
      // Only ListTiers, LocateSeats and QuoteOrder: the other tier, seat map and discount RPCs answer UNIMPLEMENTED.
      {
        definition: catalogV1.TierServiceService,
        implementation: implementService<catalogV1.TierServiceServer>(
          { listTiers: async (request: catalogV1.ListTiersRequest, context: CallContext) => this.listTiers(request, context) } as Partial<
            AsyncServiceImplementation<catalogV1.TierServiceServer>
          > as AsyncServiceImplementation<catalogV1.TierServiceServer>,
          options,
        ),
      },
      {
        definition: catalogV1.DiscountServiceService,
        implementation: implementService<catalogV1.DiscountServiceServer>(
          {
            quoteOrder: async (request: catalogV1.QuoteOrderRequest, context: CallContext) => {
              const [item] = request.items;
              this.tierOf(item!.tier_id, request.event_id, context);
              return this.priced(request.event_id, item!.tier_id, item!.quantity, request.customer_id, this.usableDiscount(request.discount_code));
            },
            redeemDiscount: async (request: catalogV1.RedeemDiscountRequest) => {
              const discount = this.discountById(request.discount_id);
              if (!discount.orders.has(request.order_id)) {
                if (discount.orders.size >= discount.maxRedemptions) throw new ApiError('redemption_limit_reached', `Discount ${discount.id} cannot be redeemed: it has been redeemed the maximum number of times.`);
                discount.orders.add(request.order_id);
              }
              return this.redemptionOf(discount, request.order_id);
            },
            releaseDiscountRedemption: async (request: catalogV1.ReleaseDiscountRedemptionRequest) => {
              const discount = this.discountById(request.discount_id);
              discount.orders.delete(request.order_id);
              return this.redemptionOf(discount, request.order_id);
            },
          } as Partial<AsyncServiceImplementation<catalogV1.DiscountServiceServer>> as AsyncServiceImplementation<catalogV1.DiscountServiceServer>,
          options,
        ),
      },
      {
        definition: catalogV1.SeatMapServiceService,
        implementation: implementService<catalogV1.SeatMapServiceServer>(
          { locateSeats: async (request: catalogV1.LocateSeatsRequest) => this.locate(request) } as Partial<AsyncServiceImplementation<catalogV1.SeatMapServiceServer>> as AsyncServiceImplementation<catalogV1.SeatMapServiceServer>,
          options,
        ),
      },
    ];
  }

  /** A published event named after its id, with the tiers the double holds in it for the caller's tenant. */
  private eventOf(id: string, context: CallContext): catalogV1.Event {
    const tiers = [...this.tiers.values()].filter((stored) => stored.tenant === tenantKey(context.tenant) && stored.tier.event_id === id).map((stored) => stored.tier);
    if (tiers.length === 0) throw ApiError.resourceMissing('event', id);
    const { livemode, currency, created_at, updated_at } = tiers[0]!;
    return {
      id,
      livemode,
      name: `Event ${id}`,
      starts_at: '2027-07-01T20:00:00.000Z',
      created_at,
      updated_at,
      description: '',
      organization_id: '',
      venue: undefined,
      ends_at: '',
      category: '',
      tags: [],
      currency,
      status: this.canceled.has(id) ? 'canceled' : 'published',
      waiting_room: { enabled: this.roomsEnabled.has(id), admission_rate_per_minute: 0 },
      tiers,
      has_seatmap: this.seats.has(id),
    };
  }

  private tierOf(id: string, eventId: string, context: CallContext): catalogV1.Tier {
    const stored = this.tiers.get(id);
    if (!stored || stored.tenant !== tenantKey(context.tenant) || stored.tier.event_id !== eventId) throw ApiError.resourceMissing('tier', id, 'tier_id');
    return stored.tier;
  }

  /** A sale's price at its tier's price, less `customerDiscount` for a known customer; none for a comp. */
  private quoteOf(reservation: catalogV1.Reservation, customerId: string): catalogV1.Quote | undefined {
    if (reservation.kind !== catalogV1.ReservationKind.RESERVATION_KIND_SALE) return undefined;
    return this.priced(reservation.event_id, reservation.tier_id, reservation.quantity, customerId);
  }

  /** The discount a code names, if it has a use left; none for an empty code. */
  private usableDiscount(code: string): DoubleCodeDiscount | null {
    if (!code) return null;
    const discount = this.codeDiscounts.get(code.toUpperCase());
    if (!discount) throw ApiError.resourceMissing('discount code', code, 'discount_code');
    if (discount.orders.size >= discount.maxRedemptions) throw new ApiError('discount_not_applicable', `The code ${discount.code} cannot be used for this order: it has been used up.`, { param: 'discount_code' });
    return discount;
  }

  private discountById(id: string): DoubleCodeDiscount {
    const discount = [...this.codeDiscounts.values()].find((candidate) => candidate.id === id);
    if (!discount) throw ApiError.resourceMissing('discount', id, 'discount_id');
    return discount;
  }

  private discountMessage(discount: DoubleCodeDiscount): catalogV1.Discount {
    const now = new Date().toISOString();
    return {
      id: discount.id,
      livemode: false,
      code: discount.code,
      percent_off: 0,
      amount_off: discount.amountOff,
      currency: 'EUR',
      applies_to: { event_ids: [], tier_ids: [] },
      valid_from: '',
      valid_until: '',
      max_redemptions: discount.maxRedemptions,
      max_redemptions_per_customer: 0,
      times_redeemed: discount.orders.size,
      active: true,
      created_at: now,
      updated_at: now,
    };
  }

  private redemptionOf(discount: DoubleCodeDiscount, orderId: string): catalogV1.DiscountRedemption {
    const now = new Date().toISOString();
    return { livemode: false, discount_id: discount.id, order_id: orderId, customer_id: '', redeemed_at: now, released_at: discount.orders.has(orderId) ? '' : now, times_redeemed: discount.orders.size };
  }

  private priced(eventId: string, tierId: string, quantity: number, customerId: string, codeDiscount: DoubleCodeDiscount | null = null): catalogV1.Quote {
    const tier = this.tiers.get(tierId)!.tier;
    const subtotal = tier.price * quantity;
    const discount = codeDiscount ? Math.min(codeDiscount.amountOff, subtotal) : customerId ? Math.min(this.customerDiscount, subtotal) : 0;
    const line = { tier_id: tier.id, quantity, unit_price: tier.price, subtotal, discount_amount: discount, total: subtotal - discount };
    return {
      livemode: tier.livemode,
      event_id: eventId,
      currency: tier.currency,
      lines: [line],
      subtotal,
      discount_amount: discount,
      total: subtotal - discount,
      discount: codeDiscount ? this.discountMessage(codeDiscount) : undefined,
      quoted_at: new Date().toISOString(),
      depends_on_customer: !customerId && this.customerDiscount > 0,
    };
  }

  /** Every tier of the event in one page (the tests' events have a handful). */
  private listTiers(request: catalogV1.ListTiersRequest, context: CallContext): catalogV1.TierList {
    const tiers = [...this.tiers.values()].filter(({ tenant, tier }) => tenant === tenantKey(context.tenant) && tier.event_id === request.event_id).map(({ tier }) => ({ ...tier }));
    return { data: tiers.sort((a, b) => (a.id < b.id ? 1 : -1)), has_more: false };
  }

  private locate(request: catalogV1.LocateSeatsRequest): catalogV1.SeatLocations {
    if (this.canceled.has(request.event_id)) throw new ApiError('event_not_on_sale', 'The event is canceled; its seats can no longer be held.');
    const seats = this.seats.get(request.event_id);
    if (!seats) throw new ApiError('resource_missing', `Event '${request.event_id}' has no seat map.`);
    const unknown = request.seat_ids.filter((id) => !seats.has(id));
    if (unknown.length > 0) throw new ApiError('parameter_invalid', `The event's seat map has no seat ${unknown.join(', ')}.`, { param: 'seats' });
    return { seats: request.seat_ids.map((id) => ({ seat_id: id, tier_id: seats.get(id)! })), waiting_room_enabled: this.roomsEnabled.has(request.event_id) };
  }

  /** Keeps a reservation of `tier` for the caller's tenant, held or (withdrawn before it was made) released. */
  private recordReservation(
    context: CallContext,
    request: Pick<catalogV1.ReserveInventoryRequest, 'reservation_id' | 'kind' | 'quantity'>,
    tier: catalogV1.Tier,
    status: 'held' | 'released',
  ): catalogV1.Reservation {
    const now = new Date().toISOString();
    const reservation: catalogV1.Reservation = {
      id: request.reservation_id,
      livemode: tier.livemode,
      event_id: tier.event_id,
      tier_id: tier.id,
      kind: request.kind,
      quantity: request.quantity,
      status,
      expires_at: now,
      created_at: now,
      committed_at: '',
      released_at: status === 'released' ? now : '',
      tier: undefined,
      quote: undefined,
      waiting_room_enabled: false,
    };
    this.reservations.set(reservation.id, { tenant: tenantKey(context.tenant), reservation });
    return reservation;
  }

  /** Inventory as catalog serves it, its calls also taken together; the calls together are counted. */
  private inventoryService(options: GrpcServerOptions): catalogV1.InventoryServiceServer {
    const served = implementService<catalogV1.InventoryServiceServer, 'reserveInventory' | 'commitReservation'>(this.inventoryHandlers(), options, ['reserveInventory', 'commitReservation']);
    return {
      ...served,
      reserveInventoryTogether: (call, callback) => {
        this.reserveTogetherCalls += 1;
        served.reserveInventoryTogether(call, callback);
      },
      commitReservationTogether: (call, callback) => {
        this.commitTogetherCalls += 1;
        served.commitReservationTogether(call, callback);
      },
    };
  }

  private inventoryHandlers(): Omit<AsyncServiceImplementation<catalogV1.InventoryServiceServer>, 'reserveInventoryTogether' | 'commitReservationTogether'> {
    const settle = (id: string, context: CallContext, to: 'committed' | 'released'): catalogV1.Reservation => {
      const stored = this.reservations.get(id);
      if (!stored || stored.tenant !== tenantKey(context.tenant)) throw ApiError.resourceMissing('reservation', id, 'reservation_id');
      const { reservation } = stored;
      if (reservation.status === 'held') {
        const tier = this.tiers.get(reservation.tier_id)!.tier;
        tier.held -= reservation.quantity;
        if (to === 'committed') tier.sold += reservation.quantity;
        reservation.status = to;
      } else if (reservation.status !== to) {
        throw new ApiError(reservation.status === 'released' ? 'reservation_released' : 'reservation_committed', `reservation ${id} is ${reservation.status}`);
      }
      return { ...reservation, tier: { ...this.tiers.get(reservation.tier_id)!.tier } };
    };
    const reserve = async (request: catalogV1.ReserveInventoryRequest, context: CallContext): Promise<catalogV1.Reservation> => {
      this.reserveCalls += 1;
      const existing = this.reservations.get(request.reservation_id);
      const waiting_room_enabled = this.roomsEnabled.has(request.event_id);
      if (existing) return { ...existing.reservation, tier: { ...this.tiers.get(existing.reservation.tier_id)!.tier }, quote: this.quoteOf(existing.reservation, request.customer_id), waiting_room_enabled };
      const tier = this.tierOf(request.tier_id, request.event_id, context);
      if (tier.held + tier.sold + request.quantity > tier.capacity) throw new ApiError('sold_out', `Tier '${tier.id}' is sold out.`);
      tier.held += request.quantity;
      const reservation = this.recordReservation(context, request, tier, 'held');
      return { ...reservation, tier: { ...tier }, quote: this.quoteOf(reservation, request.customer_id), waiting_room_enabled };
    };
    return {
      reserveInventory: reserve,
      commitReservation: async (request, context) => settle(request.reservation_id, context, 'committed'),
      releaseReservation: async (request, context) => settle(request.reservation_id, context, 'released'),
      withdrawReservation: async (request, context) => {
        const stored = this.reservations.get(request.reservation_id);
        if (stored) return { units_returned: stored.reservation.status === 'held' && settle(request.reservation_id, context, 'released').status === 'released' };
        // Never made: recorded as released, so that a reserve under the id arriving later holds nothing.
        this.recordReservation(context, request, this.tiers.get(request.tier_id)!.tier, 'released');
        return { units_returned: false };
      },
      returnInventory: async (request, context) => {
        const stored = this.reservations.get(request.reservation_id);
        if (!stored || stored.tenant !== tenantKey(context.tenant)) throw ApiError.resourceMissing('reservation', request.reservation_id, 'reservation_id');
        const tier = this.tiers.get(stored.reservation.tier_id)!.tier;
        if (!this.returns.has(request.return_id)) {
          if (stored.reservation.status !== 'committed') throw new ApiError('reservation_not_committed', `reservation ${request.reservation_id} is ${stored.reservation.status}`);
          this.returns.add(request.return_id);
          tier.sold -= request.quantity;
        }
        return { id: request.return_id, reservation_id: request.reservation_id, quantity: request.quantity, reservation_returned: request.quantity, tier: { ...tier } };
      },
    };
  }
}

