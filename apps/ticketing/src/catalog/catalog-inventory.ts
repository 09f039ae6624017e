import type { InternalClaims } from '@ticketing/auth';
import { catalogV1, RESERVATION_KIND_MESSAGES } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { CallsTogether, createGrpcClient, serviceCalls, type CallerOptions } from '@ticketing/grpc';
import type { TicketingIssuance } from '../domain/issuance';
import type { HeldSeat, SeatHoldPurpose } from '../domain/seat-hold';
import type { TierFacts } from '../domain/upgrade';
import { SoldOutMemo } from './sold-out-memo';

export interface CatalogClients {
  events: catalogV1.EventServiceClient;
  inventory: catalogV1.InventoryServiceClient;
  tiers: catalogV1.TierServiceClient;
  discounts: catalogV1.DiscountServiceClient;
  seatMaps: catalogV1.SeatMapServiceClient;
}

/** Clients of every catalog service ticketing calls, at catalog's gRPC address. */
export function catalogClientsAt(address: string): CatalogClients {
  return {
    events: createGrpcClient(catalogV1.EventServiceClient, address),
    inventory: createGrpcClient(catalogV1.InventoryServiceClient, address),
    tiers: createGrpcClient(catalogV1.TierServiceClient, address),
    discounts: createGrpcClient(catalogV1.DiscountServiceClient, address),
    seatMaps: createGrpcClient(catalogV1.SeatMapServiceClient, address),
  };
}

/**
 * What a hold tells about the units: the currency their tier is priced in, whether it is
 * seated, whether their event's waiting room was enabled when they were held, and for a sale
 * what the order costs (catalog prices it as it holds the units).
 */
export interface HeldUnits {
  currency: string;
  seated: boolean;
  waitingRoomEnabled: boolean;
  quote: GuestQuote | null;
}

export interface OrderQuote {
  /** Minor units of currency, discounts included. */
  total: number;
  currency: string;
  /** The discount applied; null when none applies. */
  discountId: string | null;
}

/** A price given without naming the customer: `dependsOnCustomer` when a known one may pay less. */
export interface GuestQuote extends OrderQuote {
  dependsOnCustomer: boolean;
}

export interface EventFacts {
  name: string;
  startsAt: string;
  /** The venue's IANA time zone; null when the event has no venue or the venue none. */
  timeZone: string | null;
  /** draft, published, canceled or completed. */
  status: string;
  /** `admissionRatePerMinute` is 0 when the event has no rate set. */
  waitingRoom: { enabled: boolean; admissionRatePerMinute: number };
}

/** The quote's one line: its fields are the issuance's. */
const ONLY_ITEM = 'items[0].';

const tierKey = (claims: InternalClaims, tierId: string) => `${claims.tenant?.account_id}/${claims.tenant?.mode}/${tierId}`;

/** How long the units of an issuance under way stay held in catalog if it never commits. */
export const ISSUANCE_HOLD_SECONDS = 60;

/**
 * How long a call waits whose answer the request around it can do without: a unit given back
 * later by the re-driver, a ticket change that goes on without its event's status (decision
 * 0032). Well inside the gateway's deadline for that request, so a catalog that does not answer
 * costs it two seconds, not its answer: waiting the full deadline, a refund committed just as
 * the gateway gave up, and the client was told 503 for a change that was made (a probe).
 */
const BEST_EFFORT_DEADLINE_MS = 2_000;

/**
 * What ticketing asks of catalog, which owns prices and inventory (decisions 0012, 0029). Every
 * call acts for the tenant in `claims`; catalog's refusals arrive as the ApiErrors they are.
 * Reserving and committing are idempotent by the issuance id, so driving an issuance again
 * after a crash or a lost reply never takes units twice. A tier catalog has just refused as sold
 * out is refused here for a moment without asking again (`soldOut`, decision 0037).
 */
export class CatalogInventory {
  /**
   * Reservations and commits of one principal made at the same moment go to catalog as one call
   * (decisions 0054, 0058), and those made while it is on its way in the next: an on-sale rush
   * costs catalog a call per batch, not two per sale. Each keeps its own request id and outcome;
   * a call that fails leaves each of its items' outcomes unknown.
   */
  private readonly reservations: CallsTogether<catalogV1.ReserveInventoryRequest, catalogV1.Reservation>;
  private readonly commits: CallsTogether<catalogV1.CommitReservationRequest, catalogV1.Reservation>;

  constructor(
    private readonly clients: CatalogClients,
    private readonly options: Omit<CallerOptions, 'idempotency'>,
    private readonly soldOut: SoldOutMemo = new SoldOutMemo(0),
  ) {
    const { inventory } = clients;
    this.reservations = new CallsTogether(inventory.reserveInventoryTogether.bind(inventory), { waitForCallInFlight: true });
    this.commits = new CallsTogether(inventory.commitReservationTogether.bind(inventory), { waitForCallInFlight: true });
  }

  /**
   * The order's total for this customer (empty for a guest) with the best applicable discount,
   * the code's if it is; a refusal names the issuance's own fields (tier_id, quantity), not the
   * quote's items.
   */
  async quote(claims: InternalClaims, order: { event_id: string; tier_id: string; quantity: number; customer_id: string; discount_code: string | null }): Promise<OrderQuote> {
    const quote = await serviceCalls(this.clients.discounts, claims, this.options)
      .quoteOrder({
        event_id: order.event_id,
        items: [{ tier_id: order.tier_id, quantity: order.quantity }],
        discount_code: order.discount_code ?? '',
        customer_id: order.customer_id,
        customer_segment_ids: [],
      })
      .catch((error: unknown) => {
        throw error instanceof ApiError && error.param?.startsWith(ONLY_ITEM) ? new ApiError(error.code, error.message, { param: error.param.slice(ONLY_ITEM.length) }) : error;
      });
    return { total: quote.total, currency: quote.currency, discountId: quote.discount?.id ?? null };
  }

  /**
   * Holds an issuance's units under its id, for a minute: long enough to record and commit it,
   * short enough that units a crashed call held are soon on sale again. A sale is priced for
   * `customer_id`, or for a guest when it is empty, discounts included.
   */
  async reserve(claims: InternalClaims, issuance: Pick<TicketingIssuance, 'id' | 'event_id' | 'tier_id' | 'quantity' | 'kind'> & { customer_id: string }): Promise<HeldUnits> {
    // Catalog's recent sold_out for this tier and quantity: ask nothing more.
    const refused = this.soldOut.refusalFor(tierKey(claims, issuance.tier_id), issuance.quantity);
    if (refused) throw refused;
    const request = {
      reservation_id: issuance.id,
      event_id: issuance.event_id,
      tier_id: issuance.tier_id,
      quantity: issuance.quantity,
      kind: RESERVATION_KIND_MESSAGES[issuance.kind],
      ttl_seconds: ISSUANCE_HOLD_SECONDS,
      customer_id: issuance.customer_id,
    };
    const reservation = await this.reservations.call(request, claims, this.options).catch((error: unknown) => {
      this.soldOut.remember(tierKey(claims, issuance.tier_id), issuance.quantity, error);
      throw error;
    });
    const { quote, tier } = reservation;
    return {
      currency: tier!.currency,
      seated: tier!.seated,
      waitingRoomEnabled: reservation.waiting_room_enabled,
      quote: quote ? { total: quote.total, currency: quote.currency, discountId: quote.discount?.id ?? null, dependsOnCustomer: quote.depends_on_customer } : null,
    };
  }

  /**
   * Counts the issuance against the discount that priced it, for its customer; counting it again
   * answers the same. Refused (redemption_limit_reached, customer_redemption_limit_reached,
   * discount_inactive) when the discount can no longer be used.
   */
  async redeem(claims: InternalClaims, issuance: Pick<TicketingIssuance, 'id' | 'customer_id'> & { discount_id: string }): Promise<void> {
    await serviceCalls(this.clients.discounts, claims, this.options).redeemDiscount({ discount_id: issuance.discount_id, order_id: issuance.id, customer_id: issuance.customer_id });
  }

  /** Gives the issuance's redemption of its discount back; giving it back again answers the same. */
  async releaseRedemption(claims: InternalClaims, issuance: Pick<TicketingIssuance, 'id'> & { discount_id: string }): Promise<void> {
    await serviceCalls(this.clients.discounts, claims, this.options).releaseDiscountRedemption({ discount_id: issuance.discount_id, order_id: issuance.id });
  }

  /** The issuance's held units become sold; committing again answers the same. */
  async commit(claims: InternalClaims, issuanceId: string): Promise<void> {
    await this.commits.call({ reservation_id: issuanceId }, claims, this.options);
  }

  /**
   * Gives one sold unit of an issuance back to its tier under `returnId`; returning again answers
   * the same. Best effort: its caller leaves a unit not taken back to the re-driver.
   */
  async returnUnit(claims: InternalClaims, returnId: string, issuanceId: string): Promise<void> {
    await serviceCalls(this.clients.inventory, claims, this.bestEffort()).returnInventory({ return_id: returnId, reservation_id: issuanceId, quantity: 1 });
    this.soldOut.forgetAll();
  }

  /** The event's status as catalog has it now, asked best effort: refused (as when catalog does not answer) within two seconds. */
  async eventStatus(claims: InternalClaims, eventId: string): Promise<string> {
    return (await serviceCalls(this.clients.events, claims, this.bestEffort()).getEvent({ id: eventId })).status;
  }

  private bestEffort(): Omit<CallerOptions, 'idempotency'> {
    return { ...this.options, deadlineMs: Math.min(this.options.deadlineMs, BEST_EFFORT_DEADLINE_MS) };
  }

  /** What a ticket page shows of its event, and its waiting room as catalog has it now; refused with resource_missing when the tenant has no such event. */
  async eventFacts(claims: InternalClaims, eventId: string): Promise<EventFacts> {
    const event = await serviceCalls(this.clients.events, claims, this.options).getEvent({ id: eventId });
    return {
      name: event.name,
      startsAt: event.starts_at,
      timeZone: event.venue?.timezone || null,
      status: event.status,
      waitingRoom: { enabled: event.waiting_room?.enabled ?? false, admissionRatePerMinute: event.waiting_room?.admission_rate_per_minute ?? 0 },
    };
  }

  /** Every tier of the event, with its counters. */
  async tiersOf(claims: InternalClaims, eventId: string): Promise<TierFacts[]> {
    const calls = serviceCalls(this.clients.tiers, claims, this.options);
    const tiers: TierFacts[] = [];
    for (let cursor = ''; ; ) {
      const page = await calls.listTiers({ event_id: eventId, page: { limit: 100, starting_after: cursor } });
      tiers.push(
        ...page.data.map(({ id, name, rank, price, currency, capacity, held, sold, seated, min_per_order, sales_start_at, sales_end_at }) => ({
          id,
          name,
          rank,
          price,
          currency,
          capacity,
          held,
          sold,
          seated,
          minPerOrder: min_per_order,
          salesStartAt: sales_start_at ? new Date(sales_start_at) : null,
          salesEndAt: sales_end_at ? new Date(sales_end_at) : null,
        })),
      );
      if (!page.has_more) return tiers;
      cursor = page.data[page.data.length - 1]!.id;
    }
  }

  /**
   * The tier of each seat, from the event's seat map; seats it does not have are refused, named,
   * and so are seats whose tickets could not be had now for `purpose` (a sale's before its tier's
   * on-sale, say).
   */
  async locateSeats(claims: InternalClaims, eventId: string, seatIds: readonly string[], purpose: SeatHoldPurpose): Promise<{ seats: HeldSeat[]; waitingRoomEnabled: boolean }> {
    const located = await serviceCalls(this.clients.seatMaps, claims, this.options).locateSeats({ event_id: eventId, seat_ids: [...seatIds], for_sale: purpose === 'sale' });
    return { seats: located.seats.map((seat) => ({ id: seat.seat_id, tier_id: seat.tier_id })), waitingRoomEnabled: located.waiting_room_enabled };
  }

  /** Gives held units back; releasing again answers the same. */
  async release(claims: InternalClaims, issuanceId: string): Promise<void> {
    await serviceCalls(this.clients.inventory, claims, this.options).releaseReservation({ reservation_id: issuanceId });
    this.soldOut.forgetAll();
  }

  /**
   * Gives up the units a reserve call whose outcome is unknown may hold under `id` (it timed out,
   * or the call that made it died): released if held, and if catalog has not carried the call
   * out yet, it never will (decision 0029). `units` is what the call asked for.
   */
  async withdraw(claims: InternalClaims, id: string, units: Pick<TicketingIssuance, 'tier_id' | 'quantity' | 'kind'>): Promise<void> {
    const { units_returned } = await serviceCalls(this.clients.inventory, claims, this.options).withdrawReservation({
      reservation_id: id,
      tier_id: units.tier_id,
      quantity: units.quantity,
      kind: RESERVATION_KIND_MESSAGES[units.kind],
    });
    if (units_returned) this.soldOut.forgetAll();
  }
}
