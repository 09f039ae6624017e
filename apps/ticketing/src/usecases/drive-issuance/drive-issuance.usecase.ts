import { tenantKey, type InternalClaims, type Tenant } from '@ticketing/auth';
import { TICKETING_SEAT_TOPIC, TICKETING_TICKET_TOPIC } from '@ticketing/contracts';
import { GroupCommit } from '@ticketing/db';
import { ApiError, refusalOf } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import { outboxRow, type OutboxRow } from '@ticketing/kafka';
import type { TicketCodeSigner } from '@ticketing/ticket-codes';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PaymentClaims } from '../../payments/payment-intents';
import type { PrismaClient } from '../../db';
import { refusalError, toRefusal, type TicketingIssuance } from '../../domain/issuance';
import type { TicketingTicket } from '../../domain/ticket';
import { IssuanceRepository } from '../../repositories/issuance.repository';
import { SeatHoldRepository } from '../../repositories/seat-hold.repository';
import { TicketRepository, type UnseatedIssue } from '../../repositories/ticket.repository';

export interface IssuedTickets {
  issuance: TicketingIssuance;
  tickets: TicketingTicket[];
}



/**
 * The refusal a client is told. A hold that lapsed before the commit is catalog's
 * `reservation_released`; to the client it is its issuance that expired, and nothing was sold.
 */
function publicRefusal(error: ApiError): ApiError {
  if (error.code !== 'reservation_released') return error;
  return new ApiError(
    'issuance_expired',
    'This issuance stalled for over a minute, so the tickets held for it were released and nothing was sold. Issue again with a new Idempotency-Key.',
  );
}

/** Why catalog would not count an order against its discount, in the buyer's terms (catalog's own speak of redemptions). */
const DISCOUNT_REFUSAL_REASONS: Record<string, string> = {
  redemption_limit_reached: 'other orders have used it the maximum number of times since this one was priced',
  customer_redemption_limit_reached: 'the customer has used it the maximum number of times',
  discount_inactive: 'it was deactivated, or is outside its validity period, since this order was priced',
};

/**
 * Catalog's refusal to count the order against its discount (used up by other orders since the
 * quote, switched off, the customer's limit reached), told as what it means to the buyer.
 */
function discountRefusal(discountId: string, error: ApiError): ApiError {
  const reason = DISCOUNT_REFUSAL_REASONS[error.code] ?? error.message;
  return new ApiError('discount_not_applicable', `The discount that priced this order (${discountId}) can no longer be used for it: ${reason}. Nothing was sold; issue again at the order's new total.`);
}

/**
 * Takes a recorded issuance as far as it can go (decision 0030). Its units were held in catalog
 * under its id before it was recorded; this commits them, then in one local transaction marks it
 * issued, creates its tickets and publishes `ticket.issued`. Every step is idempotent, so this
 * runs again safely after a crash at any point, from a client's retry or the re-driver, even
 * concurrently: only the driver that moves the issuance out of pending writes its tickets. An
 * issuance already issued answers its tickets; one refused (its hold expired before the commit)
 * throws its refusal again; an unknown outcome (catalog unreachable) leaves it pending and throws.
 * The last step (issued, tickets, `ticket.issued`) is one statement, which the concurrent
 * issuances of a tenant that sell no seats share.
 */
export class DriveIssuanceUseCase {
  /**
   * The last step of issuances that sell no seats: those of one tenant that reach it while its
   * statement runs go together in the next one (group commit, as catalog's reservations do).
   */
  private readonly unseated: GroupCommit<UnseatedIssue & { tenant: Tenant }, TicketingTicket[] | null>;

  /** `prisma` must not record idempotent writes: the issuance's own record was made when it was created. */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: CatalogInventory,
    private readonly codes: TicketCodeSigner,
    private readonly payments: PaymentClaims,
  ) {
    this.unseated = new GroupCommit((_tenantKey, items) => new TicketRepository(this.prisma).issueUnseated(items[0]!.tenant, items));
  }

  async execute(claims: InternalClaims, tenant: Tenant, issuanceId: string): Promise<IssuedTickets> {
    const issuance = await new IssuanceRepository(this.prisma).find(tenant, issuanceId);
    if (!issuance) throw new Error(`issuance ${issuanceId} of ${tenantKey(tenant)} is not recorded`);
    switch (issuance.status) {
      case 'issued':
        return { issuance, tickets: await new TicketRepository(this.prisma).ofIssuance(tenant, issuance.id) };
      case 'refused':
        throw refusalError(issuance.refusal!);
      case 'pending':
        return this.finish(claims, tenant, issuance);
    }
  }

  /** Drives an issuance the caller knows to be pending (it has just recorded it), without reading it again. */
  async finish(claims: InternalClaims, tenant: Tenant, issuance: TicketingIssuance): Promise<IssuedTickets> {
    const sold = await this.redeemAndCommit(claims, tenant, issuance);
    // Refused just now, or settled by another driver meanwhile: the record says which.
    if (!sold) return this.execute(claims, tenant, issuance.id);
    // Its tickets and message are made here, in its own call's context: the message carries its request id.
    const tickets = issuance.seat_hold_id
      ? await this.issueSeated(tenant, issuance)
      : await this.unseated.run(tenantKey(tenant), { tenant, issuance, ...this.ticketsFor(tenant, issuance) });
    const issued = tickets && { issuance: { ...issuance, status: 'issued' as const }, tickets };
    // Another driver issued it first: its tickets are the issuance's.
    return issued ?? this.execute(claims, tenant, issuance.id);
  }

  /** Its tickets, each with a new id and code, and the `ticket.issued` message that announces them. */
  private ticketsFor(tenant: Tenant, issuance: TicketingIssuance): { units: Array<{ id: string; code: string }>; message: OutboxRow<unknown> } {
    const units = Array.from({ length: issuance.quantity }, () => {
      const id = newId('tkt');
      return { id, code: this.codes.sign({ ticketId: id, eventId: issuance.event_id, version: 1 }) };
    });
    const message = outboxRow({
      topic: TICKETING_TICKET_TOPIC,
      type: 'ticket.issued',
      aggregateId: issuance.event_id,
      tenant,
      data: {
        event_id: issuance.event_id,
        tier_id: issuance.tier_id,
        issuance_id: issuance.id,
        customer_id: issuance.customer_id,
        ticket_ids: units.map((unit) => unit.id),
        amount: issuance.amount,
        currency: issuance.currency,
        kind: issuance.kind,
        discount_id: issuance.discount_id,
        metadata: issuance.metadata,
      },
    });
    return { units, message };
  }

  /** A seated issuance is issued alone: its tickets take its hold's seats, in the hold's order, and `seat.sold` is announced. */
  private async issueSeated(tenant: Tenant, issuance: TicketingIssuance): Promise<TicketingTicket[] | null> {
    const hold = await new SeatHoldRepository(this.prisma).find(tenant, issuance.seat_hold_id!);
    if (!hold) throw new Error(`issuance ${issuance.id} names seat hold ${issuance.seat_hold_id}, which its tenant does not have`);
    const seatIds = hold.seats.map((seat) => seat.id);
    const { units, message } = this.ticketsFor(tenant, issuance);
    const seatsSold = outboxRow({ topic: TICKETING_SEAT_TOPIC, type: 'seat.sold', aggregateId: issuance.event_id, tenant, data: { event_id: issuance.event_id, seat_ids: seatIds } });
    const seatedUnits = units.map((unit, index) => ({ ...unit, seat_id: seatIds[index]! }));
    return new TicketRepository(this.prisma).issueSeated(tenant, issuance, seatedUnits, message, seatsSold);
  }

  /**
   * Counts the issuance against its discount, claims the payment intent that pays for it, then
   * sells its units. False when any refused and the issuance is now refused: what was done before
   * the refusal is given back (the held units, the redemption, the claim) before the refusal is
   * recorded, so a driver cut off between the two does it again. An unknown outcome throws,
   * leaving it pending.
   */
  private async redeemAndCommit(claims: InternalClaims, tenant: Tenant, issuance: TicketingIssuance): Promise<boolean> {
    const intentId = issuance.payment?.type === 'payment_intent' ? issuance.payment.reference : null;
    // A payment intent's order was counted against its discount once, by payments, before it was charged (decision 0062).
    const discountId = intentId ? null : issuance.discount_id;
    const givenBack = { redemption: async () => undefined as void, claim: async () => undefined as void };
    if (discountId) {
      const refused = await refusalOf(() => this.catalog.redeem(claims, { ...issuance, discount_id: discountId }));
      if (refused) return this.refuseGivingBack(claims, tenant, issuance, discountRefusal(discountId, refused), givenBack);
      givenBack.redemption = () => this.catalog.releaseRedemption(claims, { id: issuance.id, discount_id: discountId });
    }
    if (intentId) {
      const refused = await refusalOf(() => this.payments.claim(claims, intentId, issuance));
      if (refused) return this.refuseGivingBack(claims, tenant, issuance, refused, givenBack);
      givenBack.claim = () => this.payments.release(claims, intentId, issuance.id);
    }
    const lapsed = await refusalOf(() => this.catalog.commit(claims, issuance.id));
    if (!lapsed) return true;
    await givenBack.redemption();
    await givenBack.claim();
    await this.refuse(tenant, issuance, publicRefusal(lapsed));
    return false;
  }

  /** Refuses the issuance after a refusal before its commit: its held units and what was counted for it go back first. */
  private async refuseGivingBack(
    claims: InternalClaims,
    tenant: Tenant,
    issuance: TicketingIssuance,
    error: ApiError,
    givenBack: { redemption: () => Promise<void>; claim: () => Promise<void> },
  ): Promise<false> {
    await this.catalog.release(claims, issuance.id);
    await givenBack.redemption();
    await givenBack.claim();
    await this.refuse(tenant, issuance, error);
    return false;
  }

  /**
   * Records the refusal and, for a seated issuance, lets go of its seat hold, in one
   * transaction: nothing was sold, so the buyer may issue again with the same hold (and the same
   * admission, which the refusal gives back). Does nothing when another driver settled it first.
   */
  private async refuse(tenant: Tenant, issuance: TicketingIssuance, error: ApiError): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      const refused = await new IssuanceRepository(tx).refuse(tenant, issuance.id, toRefusal(error));
      if (refused && issuance.seat_hold_id) await new SeatHoldRepository(tx).letGo(tenant, issuance.seat_hold_id, issuance.id);
    });
  }
}
