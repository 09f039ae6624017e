import type { InternalClaims, Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import pLimit from 'p-limit';
import { newId } from '@ticketing/ids';
import type { Logger } from '@ticketing/observability';
import { outcomeOf, type Outcome } from '../call-outcomes';
import type { CatalogInventory, HeldUnits, OrderQuote } from '../../catalog/catalog-inventory';
import type { PrismaClient, TicketingDb } from '../../db';
import type { TicketingCustomer } from '../../domain/customer';
import {
  assertPaidInFull,
  validCompRequest,
  validSaleRequest,
  type CompCommand,
  type IssuanceRequest,
  type SaleCommand,
  type TicketingIssuance,
} from '../../domain/issuance';
import { assertHoldCovers, seatHoldUnavailable } from '../../domain/seat-hold';
import { CustomerRepository } from '../../repositories/customer.repository';
import { SeatHoldRepository } from '../../repositories/seat-hold.repository';
import { IssuanceRepository } from '../../repositories/issuance.repository';
import type { DriveIssuanceUseCase, IssuedTickets } from '../drive-issuance/drive-issuance.usecase';
import type { AdmissionGate } from '../waiting-room/admission-gate';

/** What step 1 found: the customer if it exists already, and the units catalog holds. */
interface Held {
  known: TicketingCustomer | null;
  units: HeldUnits;
}

/** What the recording needs: the customer if it exists already, and the order's price. */
interface Prepared {
  known: TicketingCustomer | null;
  quote: OrderQuote;
}


/**
 * Issues tickets: sold and paid elsewhere, or complimentary (decision 0030), in this order:
 *
 * 1. Look the customer up, then hold the units in catalog under a new issuance id; catalog prices
 *    a sale as it holds it, for that customer. A sold-out tier refuses here, having cost one
 *    read and one catalog call, and nothing at all while catalog's refusal is recent (decision
 *    0037): the cheap path of an on-sale rush.
 * 2. Check a seated tier's seat hold, and the payment against the price (inside step 3). A comp
 *    is free.
 * 3. One transaction records the customer (found by email or created) and the issuance as
 *    pending. Under an Idempotency-Key it is the recorded write: a retry replays it and gets the
 *    first call's issuance, whatever steps 1 and 2 answer now (their outcomes are thrown only
 *    inside it), and the units the retry held are given back.
 * 4. Drive the issuance: commit the units, create the tickets.
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
    /** Whether this call runs under an Idempotency-Key, so an earlier call may have recorded its issuance. */
    private readonly mayReplay: () => boolean,
    /**
     * Runs the database work of held issuances a few at a time, first come first served. Under a
     * rush, hundreds of issuances interleaving on ten pooled connections all finish late together,
     * past their callers' deadlines; in turn, each finishes as soon as its own work is done.
     */
    private readonly inTurn: pLimit.Limit = pLimit(Number.POSITIVE_INFINITY),
  ) {}

  /** A sale of an event whose waiting room is enabled needs an admission token (decision 0034); comps do not. */
  async sell(claims: InternalClaims, tenant: Tenant, command: SaleCommand): Promise<IssuedTickets> {
    const request = validSaleRequest(command);
    const admissionEntryId = await this.gate.admit(tenant, request.event_id, command.admission_token ?? '');
    return this.issue(claims, tenant, { ...request, admission_entry_id: admissionEntryId });
  }

  comp(claims: InternalClaims, tenant: Tenant, command: CompCommand): Promise<IssuedTickets> {
    return this.issue(claims, tenant, validCompRequest(command));
  }

  private async issue(claims: InternalClaims, tenant: Tenant, request: IssuanceRequest): Promise<IssuedTickets> {
    const id = newId('iss');
    const held = await outcomeOf(this.hold(claims, tenant, request, id));
    // With no earlier call to replay, a refusal (sold out) ends here, without writing anything.
    if ('error' in held && !this.mayReplay()) throw held.error;
    return this.inTurn(() => this.recordAndDrive(claims, tenant, request, id, held));
  }

  /**
   * The customer if it exists already (looked up once: customers are never deleted, so the
   * recording transaction can use it), then the units, held and priced for that customer.
   */
  private async hold(claims: InternalClaims, tenant: Tenant, request: IssuanceRequest, id: string): Promise<Held> {
    const refused = this.catalog.recentRefusal(claims, request.tier_id, request.quantity);
    if (refused) throw refused;
    const customers = new CustomerRepository(this.prisma);
    const choice = request.customer;
    const known = 'customer_id' in choice ? await customers.findById(tenant, choice.customer_id) : await customers.findByEmail(tenant, choice.details.email);
    if ('customer_id' in choice && !known) throw ApiError.resourceMissing('customer', choice.customer_id, 'customer_id');
    const units = await this.catalog.reserve(claims, { id, event_id: request.event_id, tier_id: request.tier_id, quantity: request.quantity, kind: request.kind, customer_id: known?.id ?? '' });
    return { known, units };
  }

  private async recordAndDrive(claims: InternalClaims, tenant: Tenant, request: IssuanceRequest, id: string, held: Outcome<Held>): Promise<IssuedTickets> {
    const prepared = 'error' in held ? held : await outcomeOf(this.prepare(tenant, request, held.value));
    const record = (db: TicketingDb) => this.recordPending(db, tenant, request, id, prepared);
    let issuance: TicketingIssuance;
    try {
      // Recording is one statement, and needs a transaction only to be the recorded write of an
      // Idempotency-Key, or to bind a seat hold with it.
      issuance = this.mayReplay() || request.seat_hold_id ? await this.prisma.$transaction(record) : await record(this.prisma);
    } catch (error) {
      if ('value' in held) await this.giveBack(claims, id);
      throw error;
    }
    if (issuance.id === id) return this.drive.finish(claims, tenant, issuance);
    // A replay: the issuance is an earlier call's, and the units this call held are not needed.
    if ('value' in held) await this.giveBack(claims, id);
    return this.drive.execute(claims, tenant, issuance.id);
  }

  /**
   * The order's price: catalog's for a sale, which counted the customer's redemptions; nothing
   * for a comp, in the held tier's currency. A seated tier sells only the seats of a seat hold
   * that covers the order (decision 0033).
   */
  private async prepare(tenant: Tenant, request: IssuanceRequest, { known, units }: Held): Promise<Prepared> {
    await this.assertSeatsCovered(tenant, request, units);
    if (request.kind === 'comp') return { known, quote: { total: 0, currency: units.currency } };
    if (!units.quote) throw new Error(`catalog held sale ${request.tier_id} without pricing it`);
    return { known, quote: units.quote };
  }

  private async assertSeatsCovered(tenant: Tenant, request: IssuanceRequest, held: HeldUnits): Promise<void> {
    if (!held.seated) {
      if (request.seat_hold_id) throw new ApiError('parameter_invalid', `Tier '${request.tier_id}' is not seated; leave seat_hold_id out.`, { param: 'seat_hold_id' });
      return;
    }
    if (!request.seat_hold_id) {
      throw new ApiError('parameter_missing', `Tier '${request.tier_id}' is seated: hold the seats (POST /v1/events/${request.event_id}/seats/hold) and pass seat_hold_id.`, {
        param: 'seat_hold_id',
      });
    }
    const hold = await new SeatHoldRepository(this.prisma).find(tenant, request.seat_hold_id);
    if (!hold) throw ApiError.resourceMissing('seat hold', request.seat_hold_id, 'seat_hold_id');
    assertHoldCovers(hold, request, new Date());
  }

  /**
   * Runs only when no earlier call recorded this write; then the hold and the price must both
   * have succeeded. One statement records the issuance with its customer (created if new); a
   * seat hold is bound to it in the same transaction.
   */
  private async recordPending(db: TicketingDb, tenant: Tenant, request: IssuanceRequest, id: string, prepared: Outcome<Prepared>): Promise<TicketingIssuance> {
    if ('error' in prepared) throw prepared.error;
    const { known, quote } = prepared.value;
    if (request.kind === 'sale') assertPaidInFull(request.payment, quote);
    const issuance = await new IssuanceRepository(db).createPending(
      tenant,
      {
        id,
        event_id: request.event_id,
        tier_id: request.tier_id,
        kind: request.kind,
        quantity: request.quantity,
        payment: request.kind === 'sale' ? request.payment : null,
        amount: quote.total,
        currency: quote.currency,
        comp_reason: request.kind === 'comp' ? request.reason : null,
        seat_hold_id: request.seat_hold_id,
        admission_entry_id: request.admission_entry_id,
        metadata: request.kind === 'sale' ? request.metadata : {},
      },
      known ? { customer_id: known.id } : request.customer,
    );
    if (request.seat_hold_id) await this.takeHold(db, tenant, request.seat_hold_id, id);
    return issuance;
  }

  /** The hold is this issuance's from now on; another issuance, its expiry or a release got to it first if not. */
  private async takeHold(tx: TicketingDb, tenant: Tenant, holdId: string, issuanceId: string): Promise<void> {
    const holds = new SeatHoldRepository(tx);
    const now = new Date();
    if (await holds.bind(tenant, holdId, issuanceId, now)) return;
    const hold = (await holds.find(tenant, holdId))!;
    throw seatHoldUnavailable(hold, now);
  }

  /** Best effort: units not given back now return when their hold expires. */
  private async giveBack(claims: InternalClaims, id: string): Promise<void> {
    await this.catalog.release(claims, id).catch((error: unknown) => this.logger.warn({ err: error, issuance_id: id }, 'held units not given back; they return when the hold expires'));
  }
}
