import type { InternalClaims } from '@ticketing/auth';
import { catalogV1 } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { createGrpcClient, serviceCalls, type CallerOptions } from '@ticketing/grpc';
import type { OrderLine, OrderRequest } from '../domain/order';

export interface CatalogClients {
  inventory: catalogV1.InventoryServiceClient;
  discounts: catalogV1.DiscountServiceClient;
}

export function catalogClientsAt(address: string): CatalogClients {
  return {
    inventory: createGrpcClient(catalogV1.InventoryServiceClient, address),
    discounts: createGrpcClient(catalogV1.DiscountServiceClient, address),
  };
}

/** The units of one line, as catalog holds them: under the line's issuance id. */
export type HeldLine = Pick<OrderLine, 'issuance_id' | 'tier_id' | 'quantity'>;

/**
 * A catalog refusal about the order, named as the client named it: `order.items[i].…` for one
 * item; a refusal of an item that names no field (sold_out, tier_not_on_sale) names its tier.
 */
function aboutItem(error: unknown, index: number | null): unknown {
  if (!(error instanceof ApiError)) return error;
  if (index === null) return error.param ? new ApiError(error.code, error.message, { param: `order.${error.param}` }) : error;
  return new ApiError(error.code, error.message, { param: `order.items[${index}].${error.param ?? 'tier_id'}` });
}

/**
 * Catalog, as payments' orders use it (decision 0062): prices an order, holds its units for the
 * intent's lifetime under each line's issuance id, sells them once it is paid, gives them back
 * otherwise, and counts the order against its discount. Every call is idempotent by its ids.
 */
export class CatalogOrders {
  constructor(
    private readonly clients: CatalogClients,
    private readonly options: Omit<CallerOptions, 'idempotency'>,
  ) {}

  async quote(claims: InternalClaims, order: OrderRequest): Promise<catalogV1.Quote> {
    return serviceCalls(this.clients.discounts, claims, this.options)
      .quoteOrder({ event_id: order.event_id, items: order.items, discount_code: order.discount_code ?? '', customer_id: '', customer_segment_ids: [] })
      .catch((error: unknown) => {
        throw aboutItem(error, null);
      });
  }

  /**
   * Holds every line's units for `ttlSeconds`, or none: a line refused (sold_out, not on sale, a
   * quantity outside the tier's limits) gives back what the others held, and its refusal is thrown.
   */
  async hold(claims: InternalClaims, eventId: string, lines: readonly HeldLine[], ttlSeconds: number): Promise<void> {
    const inventory = serviceCalls(this.clients.inventory, claims, this.options);
    const outcomes = await Promise.allSettled(
      lines.map((line) =>
        inventory.reserveInventory({
          reservation_id: line.issuance_id,
          event_id: eventId,
          tier_id: line.tier_id,
          quantity: line.quantity,
          kind: catalogV1.ReservationKind.RESERVATION_KIND_SALE,
          ttl_seconds: ttlSeconds,
          customer_id: '',
        }),
      ),
    );
    const refused = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    // An event selling through its waiting room needs an admission, which orders do not carry yet (decision 0062).
    const throughWaitingRoom = outcomes.some((outcome) => outcome.status === 'fulfilled' && outcome.value.waiting_room_enabled);
    if (refused === -1 && !throughWaitingRoom) return;
    await this.withdraw(claims, lines);
    if (refused !== -1) throw aboutItem((outcomes[refused] as PromiseRejectedResult).reason, refused);
    throw new ApiError(
      'admission_token_required',
      `Event '${eventId}' sells through its waiting room, and order intents do not take admissions yet: issue its tickets with POST /v1/events/${eventId}/tickets and the buyer's admission_token, paid with a payment intent.`,
      { param: 'order.event_id' },
    );
  }

  /** Gives back whatever the lines may hold, including holds whose outcome was never known (decision 0029). */
  async withdraw(claims: InternalClaims, lines: readonly HeldLine[]): Promise<void> {
    const inventory = serviceCalls(this.clients.inventory, claims, this.options);
    await Promise.all(
      lines.map((line) =>
        inventory.withdrawReservation({ reservation_id: line.issuance_id, tier_id: line.tier_id, quantity: line.quantity, kind: catalogV1.ReservationKind.RESERVATION_KIND_SALE }),
      ),
    );
  }

  /** The held units become sold; refused with reservation_released when a hold lapsed. */
  async commit(claims: InternalClaims, lines: readonly HeldLine[]): Promise<void> {
    const inventory = serviceCalls(this.clients.inventory, claims, this.options);
    await Promise.all(lines.map((line) => inventory.commitReservation({ reservation_id: line.issuance_id })));
  }

  /** Counts the order against its discount; counting it again answers the same. */
  async redeem(claims: InternalClaims, discountId: string, orderId: string): Promise<void> {
    await serviceCalls(this.clients.discounts, claims, this.options).redeemDiscount({ discount_id: discountId, order_id: orderId, customer_id: '' });
  }

  async releaseRedemption(claims: InternalClaims, discountId: string, orderId: string): Promise<void> {
    await serviceCalls(this.clients.discounts, claims, this.options).releaseDiscountRedemption({ discount_id: discountId, order_id: orderId });
  }
}
