import type { InternalClaims, Tenant } from '@ticketing/auth';
import type { EarlyKeyClaims } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import type { CatalogInventory } from '../../catalog/catalog-inventory';
import type { PrismaClient } from '../../db';
import { MAX_SEATS_PER_HOLD } from '@ticketing/contracts';
import { assertOneTier, seatsUnavailable, validSeatHoldRequest, type SeatHoldRequest, type TicketingSeatHold } from '../../domain/seat-hold';
import { admissionHoldsSeats, admissionRefused } from '../../domain/waiting-room';
import { lockAdmission } from '../../repositories/admission-lock';
import { IssuanceRepository } from '../../repositories/issuance.repository';
import { SeatHoldRepository } from '../../repositories/seat-hold.repository';
import type { AdmissionGate } from '../waiting-room/admission-gate';
import { announceEnded, announceHeld } from './seat-hold-messages';

/**
 * Holds seats all or none (decision 0033): for a sale, for a buyer the event's waiting room has
 * admitted while it is enabled (screened as a sale is, and settled by catalog's word on the room
 * as the seats are located); for comps, which do not queue, without one (decision 0034). A hold
 * made with an admission names it: the admission must not be used yet, it holds seats in one
 * active hold at a time, only it sells the hold, and the hold expires with it at the latest. Under an Idempotency-Key the key is claimed
 * first (decision 0041), so a retry of a hold that committed gets it back before anything is
 * checked again: the buyer's admission may have expired since, or the first hold taken the very
 * seats. Catalog's seat map
 * says which tier each seat sells under (and refuses seats it does not have), which must be one
 * tier; then one transaction ends any hold on these seats whose time is up (the sweeper would, a
 * little later), claims every seat and publishes `seat.held`. If any seat is taken the
 * transaction rolls back, so nothing is held, and the refusal names the taken seats.
 */
export class CreateSeatHoldUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: CatalogInventory,
    private readonly gate: AdmissionGate,
    private readonly keys: EarlyKeyClaims,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(
    claims: InternalClaims,
    tenant: Tenant,
    command: { event_id: string; seat_ids: string[]; ttl_seconds: number; admission_token?: string; purpose?: string },
  ): Promise<TicketingSeatHold> {
    const request = validSeatHoldRequest(command);
    return this.keys.run(
      () => this.hold(claims, tenant, request, command.admission_token ?? ''),
      async (earlier) => earlier as TicketingSeatHold,
    );
  }

  private async hold(claims: InternalClaims, tenant: Tenant, request: SeatHoldRequest, admissionToken: string): Promise<TicketingSeatHold> {
    // Buyers the waiting room keeps out hold nothing: seats held outside it would be gone by their turn (decision 0034).
    const screened = request.purpose === 'sale' ? await this.gate.screen(tenant, request.event_id, admissionToken) : null;
    const { seats, waitingRoomEnabled } = await this.catalog.locateSeats(claims, request.event_id, request.seat_ids, request.purpose);
    // Catalog says whether the room is enabled now: a room enabled a moment ago is enforced at once.
    const admission = (await screened?.settle(waitingRoomEnabled)) ?? null;
    const admissionEntryId = admission?.entryId ?? null;
    assertOneTier(seats);
    const now = this.clock();
    // A hold made with an admission lasts no longer than it: past it, nothing could sell the hold.
    const expiresAt = new Date(Math.min(now.getTime() + request.ttl_seconds * 1000, admission?.expiresAt.getTime() ?? Infinity));
    return this.prisma.$transaction(async (tx) => {
      const holds = new SeatHoldRepository(tx);
      if (admissionEntryId) await lockAdmission(tx, admissionEntryId);
      await announceEnded(tx, await holds.expireDue(now, MAX_SEATS_PER_HOLD + 1, { eventId: request.event_id, seatIds: request.seat_ids, admissionEntryId }));
      if (admissionEntryId && (await new IssuanceRepository(tx).admissionUsed(admissionEntryId))) throw admissionRefused('used', request.event_id);
      const created = await holds.create(tenant, {
        id: newId('hold'),
        event_id: request.event_id,
        seats,
        purpose: request.purpose,
        created_at: now,
        expires_at: expiresAt,
        admission_entry_id: admissionEntryId,
      });
      if (!created) throw admissionHoldsSeats((await holds.activeOfAdmission(tenant, admissionEntryId!))!);
      const { hold, claimed } = created;
      if (claimed.length < seats.length) throw seatsUnavailable(request.seat_ids.filter((seatId) => !claimed.includes(seatId)));
      await announceHeld(tx, tenant, hold);
      return hold;
    });
  }
}
