import { AsyncResource } from 'node:async_hooks';
import { tenantKey, type InternalClaims, type Tenant } from '@ticketing/auth';
import { GroupCommit, type EarlyKeyClaims, type OutsideWork, type StatementSeal } from '@ticketing/db';
import { ApiError, isRefusal } from '@ticketing/errors';
import pLimit from 'p-limit';
import { newId } from '@ticketing/ids';
import type { Logger } from '@ticketing/observability';
import type { CatalogInventory, HeldUnits, OrderQuote } from '../../catalog/catalog-inventory';
import type { CustomerChoice } from '../../domain/customer';
import type { PrismaClient, TicketingDb } from '../../db';
import {
  paymentInFull,
  validCompRequest,
  validSaleRequest,
  type CompCommand,
  type IssuanceRequest,
  type SaleCommand,
  type TicketingIssuance,
} from '../../domain/issuance';
import { assertHoldCovers, seatHoldUnavailable, type TicketingSeatHold } from '../../domain/seat-hold';
import { admissionHoldsSeats, heldWithAnotherAdmission } from '../../domain/waiting-room';
import { CustomerRepository } from '../../repositories/customer.repository';
import { lockAdmission } from '../../repositories/admission-lock';
import { SeatHoldRepository } from '../../repositories/seat-hold.repository';
import { IssuanceRepository, type NewIssuance, type PendingRecording } from '../../repositories/issuance.repository';
import type { DriveIssuanceUseCase, IssuedTickets } from '../drive-issuance/drive-issuance.usecase';
import type { AdmissionGate, ScreenedAdmission } from '../waiting-room/admission-gate';

/** A priced order, and the id its buyer gets if the issuance creates them as it was priced for them. */
interface PreparedOrder {
  quote: OrderQuote;
  newCustomerId?: string;
}

/** A sale's admission as screened, and the admission its seat hold was made with, if any (decision 0034). */
interface SaleAdmission {
  screened: ScreenedAdmission;
  seatHeldWith: string | null;
}

/**
 * Issues tickets: sold and paid elsewhere, or complimentary (decision 0030), in this order:
 *
 * 0. Under an Idempotency-Key, claim the key first (decision 0041): a retry of a call that
 *    recorded its issuance drives that issuance instead, and a retry while the first call is
 *    still on its way is told the key is in use, never a refusal the first call then belies. A
 *    retry that takes over the claim of a call that died unrecorded first gives back what that
 *    call held (its units, its seat hold), which would otherwise stand in its way.
 * 1. Hold the units in catalog under a new issuance id; catalog prices a sale as it holds it.
 *    A sold-out tier refuses here, having cost one catalog call and nothing in ticketing's
 *    database, and nothing at all while catalog's refusal is recent (decision 0037): the cheap
 *    path of an on-sale rush.
 * 2. Settle a sale's admission by whether the event's waiting room was enabled when the units
 *    were held (decision 0034). Check a seated tier's seat hold. Price again, for the buyer as
 *    a customer, when the buyer entered a discount code or a discount limited per customer
 *    could apply (catalog priced a buyer named by email as a guest). A comp is free.
 * 3. One statement records the issuance as pending with its customer (found by email or
 *    created), checking the payment against the price first; under an Idempotency-Key, the same
 *    statement seals the issuance's id as the key's result.
 * 4. Drive the issuance: count it against its discount, commit the units, create the tickets.
 *
 * A failure after step 1 gives the held units back; if that fails too, they return when the hold
 * expires (a minute). A crash after step 3 leaves a pending issuance that the re-driver finishes.
 */
export class IssueTicketsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: CatalogInventory,
    private readonly drive: DriveIssuanceUseCase,
    private readonly gate: AdmissionGate,
    private readonly logger: Logger,
    private readonly keys: EarlyKeyClaims,
    /**
     * Runs the database work of held issuances a few at a time, first come first served. Under a
     * rush, hundreds of issuances interleaving on ten pooled connections all finish late together,
     * past their callers' deadlines; in turn, each finishes as soon as its own work is done.
     */
    private readonly inTurn: pLimit.Limit = pLimit(Number.POSITIVE_INFINITY),
  ) {}

  /**
   * Recordings of one tenant's issuances that neither bind a seat hold nor spend an admission,
   * keyed or not (decision 0055): those that arrive while the tenant's statement runs go together
   * in the next one (group commit, as their last statement does in DriveIssuanceUseCase).
   */
  private readonly recordedTogether = new GroupCommit<PendingRecording & { tenant: Tenant }, TicketingIssuance | null>(
    (_tenantKey, items) => new IssuanceRepository(this.prisma).createPendingTogether(items[0]!.tenant, items),
  );

  /** A sale of an event whose waiting room is enabled needs an admission token (decision 0034); comps do not. */
  async sell(claims: InternalClaims, tenant: Tenant, command: SaleCommand): Promise<IssuedTickets> {
    const request = validSaleRequest(command);
    const id = newId('iss');
    return this.keys.run(
      async () => {
        const admission = await this.gate.screen(tenant, request.event_id, command.admission_token ?? '');
        return this.issue(claims, tenant, request, admission, id);
      },
      (earlier) => this.replay(claims, tenant, earlier),
      this.heldUnder(claims, tenant, request, id),
    );
  }

  comp(claims: InternalClaims, tenant: Tenant, command: CompCommand): Promise<IssuedTickets> {
    const request = validCompRequest(command);
    const id = newId('iss');
    return this.keys.run(() => this.issue(claims, tenant, request, null, id), (earlier) => this.replay(claims, tenant, earlier), this.heldUnder(claims, tenant, request, id));
  }

  /** What an issuance holds outside ticketing's database under its id before it is recorded, and how a retry gives it back. */
  private heldUnder(claims: InternalClaims, tenant: Tenant, request: IssuanceRequest, id: string): OutsideWork {
    return {
      id,
      undo: async (lapsedId) => {
        await this.catalog.withdraw(claims, lapsedId, request);
        await this.letGoOfHold(tenant, request, lapsedId);
      },
    };
  }

  /** An earlier call under this Idempotency-Key recorded the issuance `earlier` names: it, driven on if it is not finished. */
  private replay(claims: InternalClaims, tenant: Tenant, earlier: unknown): Promise<IssuedTickets> {
    return this.drive.execute(claims, tenant, (earlier as { id: string }).id);
  }

  private async issue(claims: InternalClaims, tenant: Tenant, request: IssuanceRequest, admission: ScreenedAdmission | null, id: string): Promise<IssuedTickets> {
    const seatHold = request.seat_hold_id ? await this.takeHold(tenant, request, request.seat_hold_id, id) : null;
    const held = await this.hold(claims, request, id).catch(async (error: unknown) => {
      // Refused (sold out, say): nothing is held. An unknown outcome may hold units, now or once catalog carries the call out.
      if (!isRefusal(error)) await this.withdraw(claims, id, request);
      await this.letGoOfHold(tenant, request, id);
      throw error;
    });
    const admitted = admission && { screened: admission, seatHeldWith: seatHold?.admission_entry_id ?? null };
    // p-limit starts a waiting function from the call that finished before it, in that call's
    // async context; run in a resource made here, it keeps its own (its request id, its
    // Idempotency-Key's write). (AsyncResource.bind would also build two deprecation wrappers per call.)
    const context = new AsyncResource('IssueTickets');
    return this.inTurn(() => context.runInAsyncScope(() => this.recordAndDrive(claims, tenant, request, admitted, id, held)));
  }

  /**
   * The admission the sale uses, settled by catalog's word on the room as it held the units
   * (decision 0034). A seat hold made through the room sells only with the admission it was made
   * with (and the recording checks that the admission holds no other seats).
   */
  private async saleAdmission(admitted: SaleAdmission | null, held: HeldUnits, seatHoldId: string | null): Promise<string | null> {
    const entryId = (await admitted?.screened.settle(held.waitingRoomEnabled))?.entryId ?? null;
    if (entryId && admitted?.seatHeldWith && entryId !== admitted.seatHeldWith) throw heldWithAnotherAdmission(seatHoldId!);
    return entryId;
  }

  /**
   * An admission holding seats buys nothing else until that hold is sold or released: spent
   * elsewhere, it would leave the hold unsellable, keeping its seats from everyone. Checked in the
   * recording's transaction under the admission's lock, which a hold made with it takes too.
   */
  private async assertAdmissionHoldsNoOtherSeats(db: TicketingDb, tenant: Tenant, entryId: string, seatHoldId: string | null): Promise<void> {
    await lockAdmission(db, entryId);
    const holding = await new SeatHoldRepository(db).activeOfAdmission(tenant, entryId);
    if (holding && holding.id !== seatHoldId) throw admissionHoldsSeats(holding);
  }

  /** The units, held and priced: for the customer the request names by id, else as for a guest. */
  private async hold(claims: InternalClaims, request: IssuanceRequest, id: string): Promise<HeldUnits> {
    const customerId = 'customer_id' in request.customer ? request.customer.customer_id : '';
    return this.catalog.reserve(claims, { id, event_id: request.event_id, tier_id: request.tier_id, quantity: request.quantity, kind: request.kind, customer_id: customerId });
  }

  private async recordAndDrive(
    claims: InternalClaims,
    tenant: Tenant,
    order: IssuanceRequest,
    admitted: SaleAdmission | null,
    id: string,
    held: HeldUnits,
  ): Promise<IssuedTickets> {
    let issuance: TicketingIssuance;
    try {
      const request = { ...order, admission_entry_id: await this.saleAdmission(admitted, held, order.seat_hold_id) };
      const prepared = await this.prepare(claims, tenant, request, held);
      // Under an Idempotency-Key, the issuance's id is the key's result, sealed by the recording statement.
      const keySeal = this.keys.statementSeal({ id });
      const record = (db: TicketingDb) => this.recordPending(db, tenant, request, id, prepared, keySeal);
      // Recording is one statement, and needs a transaction only to bind a seat hold with it or to order it against holds made with its admission.
      issuance = request.seat_hold_id || request.admission_entry_id ? await this.prisma.$transaction(record) : await record(this.prisma);
    } catch (error) {
      await this.giveBack(claims, id);
      await this.letGoOfHold(tenant, order, id);
      throw error;
    }
    return this.drive.finish(claims, tenant, issuance);
  }

  /**
   * The order's price: catalog's for a sale; nothing for a comp, in the held tier's currency. A
   * seated tier sells only the seats of a seat hold that covers the order (decision 0033).
   * Catalog priced a buyer named by email as a guest, and without a code; when the buyer entered
   * a code, or a discount limited per customer could apply, it prices the order again for the
   * buyer as a customer (decision 0038): the email's customer, or the one this issuance will
   * create, who has redeemed nothing yet.
   */
  private async prepare(claims: InternalClaims, tenant: Tenant, request: IssuanceRequest, units: HeldUnits): Promise<PreparedOrder> {
    this.assertSeatsCovered(request, units);
    if (request.kind === 'comp') return { quote: { total: 0, currency: units.currency, discountId: null } };
    const quote = units.quote;
    if (!quote) throw new Error(`catalog held sale ${request.tier_id} without pricing it`);
    const buyerIsGuest = 'details' in request.customer && quote.dependsOnCustomer;
    if (request.discount_code === null && !buyerIsGuest) return { quote };
    const buyer = await this.buyerToPrice(tenant, request.customer);
    const order = { event_id: request.event_id, tier_id: request.tier_id, quantity: request.quantity, discount_code: request.discount_code };
    return { quote: await this.catalog.quote(claims, { ...order, customer_id: buyer.customerId }), newCustomerId: buyer.newCustomerId };
  }

  /** The customer an order is priced for: the one named, the email's, or the one the issuance will create for a new email. */
  private async buyerToPrice(tenant: Tenant, customer: CustomerChoice): Promise<{ customerId: string; newCustomerId?: string }> {
    if ('customer_id' in customer) return { customerId: customer.customer_id };
    const known = await new CustomerRepository(this.prisma).findByEmail(tenant, customer.details.email);
    if (known) return { customerId: known.id };
    const newCustomerId = newId('cus');
    return { customerId: newCustomerId, newCustomerId };
  }

  /** A seated tier sells only with a seat hold (taken before its units were held), and an unseated one never does. */
  private assertSeatsCovered(request: IssuanceRequest, held: HeldUnits): void {
    if (!held.seated && request.seat_hold_id) throw new ApiError('parameter_invalid', `Tier '${request.tier_id}' is not seated; leave seat_hold_id out.`, { param: 'seat_hold_id' });
    if (held.seated && !request.seat_hold_id) {
      throw new ApiError('parameter_missing', `Tier '${request.tier_id}' is seated: hold the seats (POST /v1/events/${request.event_id}/seats/hold) and pass seat_hold_id.`, {
        param: 'seat_hold_id',
      });
    }
  }

  /**
   * One statement records the issuance with its customer (created if new). In the same
   * transaction, a sale with an admission first checks it holds no other seats, and a seat hold is
   * bound to it after; a key is sealed by the statement itself. Any other recording, keyed or not,
   * goes with those of the tenant that arrive while one runs (`recordedTogether`).
   */
  private async recordPending(db: TicketingDb, tenant: Tenant, request: IssuanceRequest, id: string, { quote, newCustomerId }: PreparedOrder, keySeal: StatementSeal | null): Promise<TicketingIssuance> {
    const payment = request.kind === 'sale' ? paymentInFull(request.payment, quote) : null;
    const issuance: NewIssuance = {
      id,
      event_id: request.event_id,
      tier_id: request.tier_id,
      kind: request.kind,
      quantity: request.quantity,
      payment,
      amount: quote.total,
      currency: quote.currency,
      comp_reason: request.kind === 'comp' ? request.reason : null,
      seat_hold_id: request.seat_hold_id,
      admission_entry_id: request.admission_entry_id,
      discount_id: quote.discountId,
      metadata: request.kind === 'sale' ? request.metadata : {},
    };
    if (request.admission_entry_id) await this.assertAdmissionHoldsNoOtherSeats(db, tenant, request.admission_entry_id, request.seat_hold_id);
    const alone = request.seat_hold_id !== null || request.admission_entry_id !== null;
    const together = alone ? null : await this.recordedTogether.run(tenantKey(tenant), { tenant, issuance, buyer: request.customer, newCustomerId, keySeal });
    // Recorded alone, or after the shared statement could not (see createPendingTogether).
    const recorded = together ?? (await new IssuanceRepository(db).createPending(tenant, issuance, request.customer, newCustomerId, keySeal));
    if (request.seat_hold_id) {
      const holds = new SeatHoldRepository(db);
      // Only a sweep of holds taken by issuances presumed dead (SeatHoldRepository.expireDue) makes this fail.
      if (!(await holds.bindTaken(tenant, request.seat_hold_id, id))) throw seatHoldUnavailable((await holds.find(tenant, request.seat_hold_id))!, new Date());
    }
    return recorded;
  }

  /**
   * Takes the seat hold for this issuance before it holds any unit: of concurrent issuances
   * naming one hold (a buyer's double submit), one takes it and the others are refused
   * seat_hold_unavailable having held nothing, so no other buyer finds the tier sold out meanwhile.
   */
  private async takeHold(tenant: Tenant, order: IssuanceRequest, holdId: string, issuanceId: string): Promise<TicketingSeatHold> {
    const holds = new SeatHoldRepository(this.prisma);
    const hold = await holds.find(tenant, holdId);
    if (!hold) throw ApiError.resourceMissing('seat hold', holdId, 'seat_hold_id');
    const now = new Date();
    assertHoldCovers(hold, order, now);
    if (!(await holds.take(tenant, holdId, issuanceId, now))) throw seatHoldUnavailable((await holds.find(tenant, holdId))!, now);
    return hold;
  }

  /** Best effort: a hold not let go of now ends after its expiry (SeatHoldRepository.expireDue). */
  private async letGoOfHold(tenant: Tenant, order: IssuanceRequest, issuanceId: string): Promise<void> {
    if (!order.seat_hold_id) return;
    await new SeatHoldRepository(this.prisma)
      .letGo(tenant, order.seat_hold_id, issuanceId)
      .catch((error: unknown) => this.logger.warn({ err: error, issuance_id: issuanceId }, 'seat hold not let go of; it ends after its expiry'));
  }

  /** Best effort: units not withdrawn now return when their hold expires, if catalog ever held them. */
  private async withdraw(claims: InternalClaims, id: string, request: IssuanceRequest): Promise<void> {
    await this.catalog.withdraw(claims, id, request).catch((error: unknown) => this.logger.warn({ err: error, issuance_id: id }, 'units of an unknown hold not withdrawn; if held, they return when the hold expires'));
  }

  /** Best effort: units not given back now return when their hold expires. */
  private async giveBack(claims: InternalClaims, id: string): Promise<void> {
    await this.catalog.release(claims, id).catch((error: unknown) => this.logger.warn({ err: error, issuance_id: id }, 'held units not given back; they return when the hold expires'));
  }
}
