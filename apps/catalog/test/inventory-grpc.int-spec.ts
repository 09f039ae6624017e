import type { InternalClaims, Mode } from '@ticketing/auth';
import { catalogReadsGenerationEntry, catalogV1 } from '@ticketing/contracts';
import { callUnary, createGrpcClient, type RunningGrpcServer, startGrpcServer } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { waitFor, waitForLockWaiters } from '@ticketing/testing';
import type { ReservationRequest } from '../src/domain/reservation';
import { catalogGrpcServices } from '../src/grpc/services';
import { DiscountRepository } from '../src/repositories/discount.repository';
import { ReservationRepository } from '../src/repositories/reservation.repository';
import { ReleaseExpiredReservationsUseCase } from '../src/usecases/release-expired-reservations/release-expired-reservations.usecase';
import { useCatalogDatabase } from './support/catalog-database';
import { createDiscountRequest } from './support/discount-requests';
import { createEventRequest, createTierRequest, updateEventRequest } from './support/requests';
import { useReadGenerations } from './support/read-generations';

const tokenSecret = 'catalog-test-secret-0123456789';
const options = { tokenSecret, deadlineMs: 10_000 };
const { SALE, COMP } = { SALE: catalogV1.ReservationKind.RESERVATION_KIND_SALE, COMP: catalogV1.ReservationKind.RESERVATION_KIND_COMP };

/** Inventory reservations (decision 0029) through catalog's real gRPC server on real PostgreSQL. */
describe('catalog inventory reservations (real PostgreSQL, real gRPC)', () => {
  const reads = useReadGenerations();
  const catalog = useCatalogDatabase();
  let server: RunningGrpcServer;
  let events: catalogV1.EventServiceClient;
  let tiers: catalogV1.TierServiceClient;
  let inventory: catalogV1.InventoryServiceClient;
  let discounts: catalogV1.DiscountServiceClient;

  beforeAll(async () => {
    server = await startGrpcServer(catalogGrpcServices(catalog.prisma, { tokenSecret, logger: createLogger('catalog-test', 'silent') }, reads.generations), 0);
    const address = `127.0.0.1:${server.port}`;
    events = createGrpcClient(catalogV1.EventServiceClient, address);
    tiers = createGrpcClient(catalogV1.TierServiceClient, address);
    inventory = createGrpcClient(catalogV1.InventoryServiceClient, address);
    discounts = createGrpcClient(catalogV1.DiscountServiceClient, address);
  });

  afterAll(async () => {
    for (const client of [events, tiers, inventory, discounts]) client.close();
    await server.shutdown();
  });

  const tenant = (mode: Mode = 'test'): InternalClaims => ({ request_id: 'req_test', tenant: { account_id: newId('acct'), mode } });

  /** An event with one tier, published unless asked otherwise. */
  async function eventWithTier(claims: InternalClaims, tierFields: Partial<catalogV1.CreateTierRequest> = {}, { publish = true, startsAt = '2099-04-01T18:00:00Z' } = {}) {
    const event = await callUnary(events.createEvent.bind(events), createEventRequest({ starts_at: startsAt }), claims, options);
    const tier = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, tierFields), claims, options);
    if (publish) await callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { status: 'published' }), claims, options);
    return { eventId: event.id, tierId: tier.id };
  }

  const reserve = (claims: InternalClaims, fields: Partial<catalogV1.ReserveInventoryRequest> & Pick<catalogV1.ReserveInventoryRequest, 'event_id' | 'tier_id'>) =>
    callUnary(inventory.reserveInventory.bind(inventory), { reservation_id: newId('iss'), quantity: 1, kind: SALE, ttl_seconds: 0, customer_id: '', ...fields }, claims, options);
  const commit = (claims: InternalClaims, reservationId: string) => callUnary(inventory.commitReservation.bind(inventory), { reservation_id: reservationId }, claims, options);
  const release = (claims: InternalClaims, reservationId: string) => callUnary(inventory.releaseReservation.bind(inventory), { reservation_id: reservationId }, claims, options);
  const counters = async (tierId: string) => catalog.prisma.tier.findUniqueOrThrow({ where: { id: tierId }, select: { held: true, sold: true } });
  const reservationCount = (tierId: string) => catalog.prisma.inventoryReservation.count({ where: { tier_id: tierId } });

  it('holds units, then commits them as sold; committing again answers the same reservation', async () => {
    const claims = tenant();
    const { eventId, tierId } = await eventWithTier(claims, { capacity: 10, price: 2500 });
    const held = await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 3, ttl_seconds: 120 });
    expect(held).toMatchObject({ event_id: eventId, tier_id: tierId, quantity: 3, status: 'held', kind: SALE, committed_at: '', released_at: '' });
    expect(held.tier).toMatchObject({ held: 3, sold: 0, price: 2500, currency: 'USD' });
    expect(new Date(held.expires_at).getTime() - new Date(held.created_at).getTime()).toBe(120_000);

    const committed = await commit(claims, held.id);
    expect(committed).toMatchObject({ id: held.id, status: 'committed', released_at: '' });
    expect(committed.committed_at).not.toBe('');
    expect(committed.tier).toMatchObject({ held: 0, sold: 3 });
    expect(await commit(claims, held.id)).toMatchObject({ status: 'committed', committed_at: committed.committed_at });
    expect(await counters(tierId)).toEqual({ held: 0, sold: 3 });
    await expect(release(claims, held.id)).rejects.toMatchObject({ code: 'reservation_committed', status: 409 });
    expect(await counters(tierId)).toEqual({ held: 0, sold: 3 });
  });

  it("prices a sale as it holds it, with the best automatic discount for its customer; a comp carries no price", async () => {
    const claims = tenant();
    const { eventId, tierId } = await eventWithTier(claims, { capacity: 10, price: 2500, max_per_order: 4 });
    const discount = await callUnary(discounts.createDiscount.bind(discounts), createDiscountRequest({ percent_off: 20, max_redemptions_per_customer: 1 }), claims, options);
    await callUnary(discounts.createDiscountTrigger.bind(discounts), { discount_id: discount.id, condition: { $case: 'min_quantity', value: { quantity: 2 } } }, claims, options);

    const one = await reserve(claims, { event_id: eventId, tier_id: tierId, customer_id: 'cus_1' });
    expect(one.quote).toMatchObject({ event_id: eventId, currency: 'USD', subtotal: 2500, discount_amount: 0, total: 2500, discount: undefined, depends_on_customer: false });
    const two = await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 2, customer_id: 'cus_1' });
    expect(two.quote).toMatchObject({ subtotal: 5000, discount_amount: 1000, total: 4000, discount: { id: discount.id } });
    // A guest cannot use a discount limited per customer, as QuoteOrder says, and is told a customer might pay less.
    const guest = await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 2 });
    expect(guest.quote).toMatchObject({ subtotal: 5000, total: 5000, depends_on_customer: true });
    // The same reservation again is priced again, as the answer to a retry must be.
    expect((await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 2, customer_id: 'cus_1', reservation_id: two.id })).quote).toMatchObject({ total: 4000 });
    expect((await reserve(claims, { event_id: eventId, tier_id: tierId, kind: COMP })).quote).toBeUndefined();
    await expect(reserve(claims, { event_id: eventId, tier_id: tierId, customer_id: 'c'.repeat(300) })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'customer_id' });
    expect(await counters(tierId)).toEqual({ held: 6, sold: 0 });
  });

  it('looks a sale’s automatic discounts up while its units are being held, not after', async () => {
    const claims = tenant();
    const { eventId, tierId } = await eventWithTier(claims, { capacity: 10, price: 2500 });
    const discount = await callUnary(discounts.createDiscount.bind(discounts), createDiscountRequest({ percent_off: 20 }), claims, options);
    await callUnary(discounts.createDiscountTrigger.bind(discounts), { discount_id: discount.id, condition: { $case: 'min_quantity', value: { quantity: 1 } } }, claims, options);
    const lookups = jest.spyOn(DiscountRepository.prototype, 'findAutomatic');
    try {
      let holding!: Promise<catalogV1.Reservation>;
      await catalog.prisma.$transaction(
        async (tx) => {
          // The tier's row is locked: the hold's statement waits for it, and the lookup must not.
          await tx.$queryRaw`SELECT id FROM tiers WHERE id = ${tierId} FOR UPDATE`;
          holding = reserve(claims, { event_id: eventId, tier_id: tierId });
          await waitForLockWaiters(catalog.prisma);
          await waitFor('the automatic discounts to be looked up', async () => (lookups.mock.calls.length > 0 ? true : undefined));
        },
        { timeout: 10_000 },
      );
      expect((await holding).quote).toMatchObject({ total: 2000, discount: { id: discount.id } });
      expect(lookups).toHaveBeenCalledTimes(1);
    } finally {
      lookups.mockRestore();
    }
  });

  it('says whether the event’s waiting room was enabled when it held the units; the same id again says whether it is now', async () => {
    const claims = tenant();
    const { eventId, tierId } = await eventWithTier(claims, { capacity: 10 });
    const before = await reserve(claims, { event_id: eventId, tier_id: tierId });
    expect(before.waiting_room_enabled).toBe(false);
    await callUnary(events.updateEvent.bind(events), updateEventRequest(eventId, { waiting_room: { enabled: true, admission_rate_per_minute: 60 } }), claims, options);
    expect(await reserve(claims, { event_id: eventId, tier_id: tierId })).toMatchObject({ status: 'held', waiting_room_enabled: true });
    expect(await reserve(claims, { event_id: eventId, tier_id: tierId, reservation_id: before.id })).toMatchObject({ id: before.id, waiting_room_enabled: true });
    expect(await reserve(claims, { event_id: eventId, tier_id: tierId, kind: COMP })).toMatchObject({ waiting_room_enabled: true });
  });

  it('releases units back to the tier; releasing twice releases once, and a released reservation cannot be committed', async () => {
    const claims = tenant();
    const { eventId, tierId } = await eventWithTier(claims, { capacity: 5 });
    const held = await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 5 });
    expect((await release(claims, held.id)).tier).toMatchObject({ held: 0, sold: 0 });
    expect(await release(claims, held.id)).toMatchObject({ status: 'released' });
    expect(await counters(tierId)).toEqual({ held: 0, sold: 0 });
    await expect(commit(claims, held.id)).rejects.toMatchObject({ code: 'reservation_released', status: 409 });
  });

  describe('withdrawals of reservations whose outcome the caller does not know (decision 0029)', () => {
    const withdraw = (claims: InternalClaims, request: { reservation_id: string; tier_id: string; quantity: number }) =>
      callUnary(inventory.withdrawReservation.bind(inventory), { kind: SALE, ...request }, claims, options);

    it('releases a held reservation, leaves a settled one as it is, and is idempotent', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 5 });
      const held = await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 2 });
      const sold = await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 1 });
      await commit(claims, sold.id);
      expect(await withdraw(claims, { reservation_id: held.id, tier_id: tierId, quantity: 2 })).toEqual({ units_returned: true });
      expect(await withdraw(claims, { reservation_id: held.id, tier_id: tierId, quantity: 2 })).toEqual({ units_returned: false });
      expect(await withdraw(claims, { reservation_id: sold.id, tier_id: tierId, quantity: 1 })).toEqual({ units_returned: false });
      expect(await counters(tierId)).toEqual({ held: 0, sold: 1 });
      // Another tenant withdraws nothing of this one's.
      expect(await withdraw(tenant(), { reservation_id: newId('iss'), tier_id: tierId, quantity: 1 })).toEqual({ units_returned: false });
      expect(await reservationCount(tierId)).toBe(2);
    });

    it('makes a reserve that arrives after the withdrawal hold nothing: a stalled call carried out late cannot strand units', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 2 });
      const late = { reservation_id: newId('iss'), event_id: eventId, tier_id: tierId, quantity: 2 };
      expect(await withdraw(claims, late)).toEqual({ units_returned: false });
      expect(await reserve(claims, late)).toMatchObject({ id: late.reservation_id, status: 'released' });
      await expect(commit(claims, late.reservation_id)).rejects.toMatchObject({ code: 'reservation_released' });
      // The retry that withdrew it holds the units under its own id.
      expect(await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 2 })).toMatchObject({ status: 'held' });
      expect(await counters(tierId)).toEqual({ held: 2, sold: 0 });
    });

    it('releases a reservation whose reserve was still committing when the withdrawal began', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 3 });
      const request = { reservation_id: newId('iss'), event_id: eventId, tier_id: tierId, quantity: 3 };
      let withdrawing!: Promise<catalogV1.ReservationWithdrawal>;
      await catalog.prisma.$transaction(
        async (tx) => {
          // A reserve's statement has held the units and not committed yet when the withdrawal arrives.
          const now = new Date();
          await tx.$queryRaw`SELECT outcome FROM reserve_inventory_batch(${claims.tenant!.account_id}, 'test', ${eventId}, ${tierId}, ${[request.reservation_id]}::text[],
            ${['sale']}::text[], ${[3]}::int[], ${[new Date(now.getTime() + 60_000)]}::timestamptz[], ${[now]}::timestamptz[])`;
          withdrawing = withdraw(claims, request);
          await waitForLockWaiters(catalog.prisma);
        },
        { timeout: 10_000 },
      );
      expect(await withdrawing).toEqual({ units_returned: true });
      expect(await counters(tierId)).toEqual({ held: 0, sold: 0 });
      expect(await catalog.prisma.inventoryReservation.findUniqueOrThrow({ where: { id: request.reservation_id }, select: { status: true } })).toEqual({ status: 'released' });
    });
  });

  it('is idempotent by reservation id: the same id again takes nothing more, another request under it is refused', async () => {
    const claims = tenant();
    const { eventId, tierId } = await eventWithTier(claims, { capacity: 10 });
    const request = { reservation_id: newId('iss'), event_id: eventId, tier_id: tierId, quantity: 2 };
    const [first, second] = await Promise.all([reserve(claims, request), reserve(claims, request)]);
    expect(second).toMatchObject({ id: first.id, status: 'held', quantity: 2 });
    expect(await counters(tierId)).toEqual({ held: 2, sold: 0 });
    await expect(reserve(claims, { ...request, quantity: 3 })).rejects.toMatchObject({ code: 'idempotency_key_reused', param: 'reservation_id' });
    await commit(claims, request.reservation_id);
    expect(await reserve(claims, request)).toMatchObject({ status: 'committed' });
    expect(await counters(tierId)).toEqual({ held: 0, sold: 2 });
  });

  it('refuses what a sale may not take, explaining why, and writes nothing', async () => {
    const claims = tenant();
    const { eventId, tierId } = await eventWithTier(claims, { capacity: 4, min_per_order: 2, max_per_order: 3 });
    const draft = await eventWithTier(claims, {}, { publish: false });
    const closed = await eventWithTier(claims, { sales_start_at: '2020-01-01T00:00:00Z', sales_end_at: '2020-02-01T00:00:00Z' });
    await expect(reserve(claims, { event_id: draft.eventId, tier_id: draft.tierId })).rejects.toMatchObject({ code: 'event_not_on_sale', status: 409 });
    await expect(reserve(claims, { event_id: closed.eventId, tier_id: closed.tierId })).rejects.toMatchObject({ code: 'tier_not_on_sale', status: 409 });
    await expect(reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 1 })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'quantity' });
    await expect(reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 4 })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'quantity' });
    await expect(reserve(claims, { event_id: eventId, tier_id: 'tier_missing' })).rejects.toMatchObject({ code: 'resource_missing', param: 'tier_id' });
    await expect(reserve(claims, { event_id: draft.eventId, tier_id: tierId })).rejects.toMatchObject({ code: 'resource_missing', param: 'tier_id' });
    await expect(reserve(claims, { event_id: eventId, tier_id: tierId, kind: catalogV1.ReservationKind.RESERVATION_KIND_UNSPECIFIED })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'kind',
    });
    await expect(reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 2, ttl_seconds: 3601 })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'ttl_seconds' });
    await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 3 });
    await expect(reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 2 })).rejects.toMatchObject({ code: 'sold_out', message: expect.stringContaining('has 1 left') });
    expect(await counters(tierId)).toEqual({ held: 3, sold: 0 });
    expect(await reservationCount(tierId)).toBe(1);
    for (const other of [draft, closed]) expect(await reservationCount(other.tierId)).toBe(0);
  });

  it('ends the sales of a tier without a sales end when its event starts, and sells a tier whose own end is later', async () => {
    const claims = tenant();
    const startedAt = '2026-01-10T19:00:00Z';
    const untilStart = await eventWithTier(claims, {}, { startsAt: startedAt });
    await expect(reserve(claims, { event_id: untilStart.eventId, tier_id: untilStart.tierId })).rejects.toMatchObject({
      code: 'tier_not_on_sale',
      message: `Tier '${untilStart.tierId}' is not on sale now: it sells until its event starts at 2026-01-10T19:00:00.000Z.`,
    });
    expect(await reservationCount(untilStart.tierId)).toBe(0);
    const atTheDoor = await eventWithTier(claims, { sales_end_at: '2099-01-01T00:00:00Z' }, { startsAt: startedAt });
    expect(await reserve(claims, { event_id: atTheDoor.eventId, tier_id: atTheDoor.tierId })).toMatchObject({ status: 'held' });
    expect(await reserve(claims, { event_id: untilStart.eventId, tier_id: untilStart.tierId, kind: COMP })).toMatchObject({ status: 'held' });
  });

  it('sells on while the tier and its event are edited: no deadlock fails a sale or an edit (decision 0029, lock order)', async () => {
    const claims = tenant();
    const { eventId, tierId } = await eventWithTier(claims, { capacity: 1000 });
    const updateTier = (fields: Partial<catalogV1.UpdateTierRequest>) => callUnary(tiers.updateTier.bind(tiers), { event_id: eventId, id: tierId, ...fields }, claims, options);
    const sales = Array.from({ length: 300 }, () => reserve(claims, { event_id: eventId, tier_id: tierId }));
    const edits = Array.from({ length: 30 }, (_, index) => (index % 2 === 0 ? updateTier({ capacity: 1000 - (index % 4) }) : updateTier({ name: `GA ${index}` })));
    const outcomes = await Promise.allSettled([...sales, ...edits]);
    const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String((outcome.reason as Error).message)] : []));
    expect(failures).toEqual([]);
    expect(await counters(tierId)).toEqual({ held: 300, sold: 0 });
  });

  it('takes comps outside the sales window and per-order limits, on a draft event too, but never past capacity', async () => {
    const claims = tenant();
    const { eventId, tierId } = await eventWithTier(claims, { capacity: 6, max_per_order: 2, sales_start_at: '2020-01-01T00:00:00Z', sales_end_at: '2020-02-01T00:00:00Z' }, { publish: false });
    expect(await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 5, kind: COMP })).toMatchObject({ kind: COMP, status: 'held' });
    await expect(reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 2, kind: COMP })).rejects.toMatchObject({ code: 'sold_out' });
    await callUnary(events.updateEvent.bind(events), updateEventRequest(eventId, { status: 'published' }), claims, options);
    await callUnary(events.updateEvent.bind(events), updateEventRequest(eventId, { status: 'canceled' }), claims, options);
    await expect(reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 1, kind: COMP })).rejects.toMatchObject({ code: 'event_not_on_sale' });
  });

  describe('returns of sold units', () => {
    const giveBack = (claims: InternalClaims, reservationId: string, quantity = 1, returnId = newId('tch')) =>
      callUnary(inventory.returnInventory.bind(inventory), { return_id: returnId, reservation_id: reservationId, quantity }, claims, options);

    it('gives sold units back one return at a time; the same return again gives nothing more', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 5 });
      const sold = await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 3 });
      await commit(claims, sold.id);
      const first = await giveBack(claims, sold.id, 1, 'tch_first');
      expect(first).toMatchObject({ id: 'tch_first', reservation_id: sold.id, quantity: 1, reservation_returned: 1, tier: { sold: 2, held: 0 } });
      expect(await giveBack(claims, sold.id, 1, 'tch_first')).toMatchObject({ reservation_returned: 1, tier: { sold: 2 } });
      await giveBack(claims, sold.id, 2);
      expect(await counters(tierId)).toEqual({ held: 0, sold: 0 });
      await expect(giveBack(claims, sold.id, 1)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'quantity', message: expect.stringContaining('3 of its units returned already') });
      await expect(giveBack(claims, sold.id, 2, 'tch_first')).rejects.toMatchObject({ code: 'idempotency_key_reused', param: 'return_id' });
      expect(await counters(tierId)).toEqual({ held: 0, sold: 0 });
    });

    it('refuses to return units that were never sold, and another tenant’s', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 5 });
      const held = await reserve(claims, { event_id: eventId, tier_id: tierId });
      await expect(giveBack(claims, held.id)).rejects.toMatchObject({ code: 'reservation_not_committed', status: 409 });
      await release(claims, held.id);
      await expect(giveBack(claims, held.id)).rejects.toMatchObject({ code: 'reservation_released', status: 409 });
      const sold = await reserve(claims, { event_id: eventId, tier_id: tierId });
      await commit(claims, sold.id);
      await expect(giveBack(tenant(), sold.id)).rejects.toMatchObject({ code: 'resource_missing', param: 'reservation_id' });
      expect(await counters(tierId)).toEqual({ held: 0, sold: 1 });
    });

    it('never gives back more than was sold, whatever the concurrency', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 10, max_per_order: 10 });
      const sold = await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 4 });
      await commit(claims, sold.id);
      const sameReturn = newId('tch');
      const outcomes = await Promise.allSettled([
        ...Array.from({ length: 10 }, () => giveBack(claims, sold.id)),
        ...Array.from({ length: 5 }, () => giveBack(claims, sold.id, 1, sameReturn)),
      ]);
      // Four returns get the four units; the five calls of one return all succeed or all fail together.
      const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect([4, 8]).toContain(fulfilled.length);
      expect(await counters(tierId)).toEqual({ held: 0, sold: 0 });
      expect(await catalog.prisma.inventoryReturn.count({ where: { reservation_id: sold.id } })).toBe(4);
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(refused.every((outcome) => (outcome as PromiseRejectedResult).reason.code === 'parameter_invalid')).toBe(true);
    });
  });

  it('keeps tenants and modes apart: another tenant can neither reserve the tier nor settle the reservation', async () => {
    const owner = tenant();
    const { eventId, tierId } = await eventWithTier(owner);
    const held = await reserve(owner, { event_id: eventId, tier_id: tierId });
    const liveTwin: InternalClaims = { ...owner, tenant: { account_id: owner.tenant!.account_id, mode: 'live' } };
    for (const stranger of [tenant(), liveTwin]) {
      await expect(reserve(stranger, { event_id: eventId, tier_id: tierId })).rejects.toMatchObject({ code: 'resource_missing' });
      await expect(commit(stranger, held.id)).rejects.toMatchObject({ code: 'resource_missing' });
      await expect(release(stranger, held.id)).rejects.toMatchObject({ code: 'resource_missing' });
    }
    expect(await counters(tierId)).toEqual({ held: 1, sold: 0 });
  });

  it('never takes more than the capacity, whatever the concurrency', async () => {
    const claims = tenant();
    const { eventId, tierId } = await eventWithTier(claims, { capacity: 50, max_per_order: 2 });
    const attempts = Array.from({ length: 120 }, (_, index) =>
      reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 1 + (index % 2) }).then(
        (reservation) => reservation.quantity,
        (error: { code: string }) => error.code,
      ),
    );
    const outcomes = await Promise.all(attempts);
    const taken = outcomes.filter((outcome): outcome is number => typeof outcome === 'number');
    expect(outcomes.filter((outcome) => typeof outcome === 'string').every((code) => code === 'sold_out')).toBe(true);
    const sum = taken.reduce((total, quantity) => total + quantity, 0);
    expect(sum).toBeGreaterThanOrEqual(49);
    expect(sum).toBeLessThanOrEqual(50);
    expect(await counters(tierId)).toEqual({ held: sum, sold: 0 });
    expect(await reservationCount(tierId)).toBe(taken.length);
  });

  describe('group reservation (decision 0036)', () => {
    const entry = (eventId: string, tierId: string, fields: Partial<ReservationRequest> = {}) => ({
      request: { id: newId('iss'), event_id: eventId, tier_id: tierId, kind: 'sale' as const, quantity: 1, expires_at: new Date(Date.now() + 60_000), ...fields },
      at: new Date(),
    });

    it('decides the reservations of one statement in order, against the counters the earlier ones left', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 3, max_per_order: 2 });
      const first = entry(eventId, tierId, { quantity: 2 });
      const batch = [first, entry(eventId, tierId, { quantity: 2 }), entry(eventId, tierId), { ...first, at: new Date() }, entry(eventId, tierId, { kind: 'comp' })];
      const outcomes = await new ReservationRepository(catalog.prisma).reserveAll({ accountId: claims.tenant!.account_id, mode: 'test' }, eventId, tierId, batch);
      expect(outcomes.map((outcome) => [outcome.outcome, 'tier' in outcome ? outcome.tier.held : null])).toEqual([
        ['taken', 2],
        ['refused', 2],
        ['taken', 3],
        ['not_claimed', null],
        ['refused', 3],
      ]);
      expect(await counters(tierId)).toEqual({ held: 3, sold: 0 });
      const kept = await catalog.prisma.inventoryReservation.findMany({ where: { tier_id: tierId }, select: { id: true, quantity: true } });
      expect(kept.map((reservation) => reservation.id).sort()).toEqual([first.request.id, batch[2]!.request.id].sort());
    });

    it('claims nothing for a tier the tenant does not have in that event', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims);
      const outcomes = await new ReservationRepository(catalog.prisma).reserveAll({ accountId: newId('acct'), mode: 'test' }, eventId, tierId, [entry(eventId, tierId), entry(eventId, tierId)]);
      expect(outcomes).toEqual([{ outcome: 'not_claimed' }, { outcome: 'not_claimed' }]);
      expect(await reservationCount(tierId)).toBe(0);
    });

    it('takes the reservations of a tier that arrive together in fewer statements than reservations', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 30, max_per_order: 1 });
      const statements = jest.spyOn(ReservationRepository.prototype, 'reserveAll');
      try {
        const outcomes = await Promise.all(Array.from({ length: 40 }, () => reserve(claims, { event_id: eventId, tier_id: tierId }).then(() => 'held', (error: { code: string }) => error.code)));
        expect(outcomes.filter((outcome) => outcome === 'held')).toHaveLength(30);
        expect(outcomes.filter((outcome) => outcome === 'sold_out')).toHaveLength(10);
        expect(statements.mock.calls.length).toBeLessThan(20);
      } finally {
        statements.mockRestore();
      }
      expect(await counters(tierId)).toEqual({ held: 30, sold: 0 });
    });

    it('commits the reservations of a tenant that arrive together in fewer statements, each tier counting its own', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 30 });
      const other = await eventWithTier(claims, { capacity: 30 });
      const held = await Promise.all([
        ...Array.from({ length: 20 }, () => reserve(claims, { event_id: eventId, tier_id: tierId })),
        ...Array.from({ length: 10 }, () => reserve(claims, { event_id: other.eventId, tier_id: other.tierId, quantity: 2 })),
      ]);
      const statements = jest.spyOn(ReservationRepository.prototype, 'commitAll');
      try {
        // Each reservation twice at once: the second commit of each answers the same reservation.
        const committed = await Promise.all([...held, ...held].map((reservation) => commit(claims, reservation.id)));
        expect(committed.map((reservation) => reservation.status)).toEqual(Array(60).fill('committed'));
        expect(statements.mock.calls.length).toBeLessThan(30);
      } finally {
        statements.mockRestore();
      }
      expect(await counters(tierId)).toEqual({ held: 0, sold: 20 });
      expect(await counters(other.tierId)).toEqual({ held: 0, sold: 20 });
    });
  });

  describe('calls together (decisions 0054, 0058)', () => {
    const callOf = <TRequest>(request: TRequest, requestId = newId('req')) => ({
      metadata: { request_id: requestId, deadline_at_ms: Date.now() + 10_000, idempotency_key: '', idempotency_fingerprint: '' },
      request,
    });
    const reserveTogether = (claims: InternalClaims, reservations: catalogV1.ReserveInventoryRequest[]) =>
      callUnary(inventory.reserveInventoryTogether.bind(inventory), { calls: reservations.map((reservation) => callOf(reservation)) }, claims, options);
    const commitTogether = (claims: InternalClaims, reservationIds: string[]) =>
      callUnary(inventory.commitReservationTogether.bind(inventory), { calls: reservationIds.map((id) => callOf({ reservation_id: id })) }, claims, options);
    const request = (eventId: string, tierId: string, fields: Partial<catalogV1.ReserveInventoryRequest> = {}): catalogV1.ReserveInventoryRequest => ({
      reservation_id: newId('iss'),
      event_id: eventId,
      tier_id: tierId,
      quantity: 1,
      kind: SALE,
      ttl_seconds: 0,
      customer_id: '',
      ...fields,
    });
    /** Each outcome as [the reservation's status, or the refusal's code and param]. */
    const summary = ({ outcomes }: catalogV1.ReservationOutcomes) =>
      outcomes.map(({ outcome }) => (outcome?.$case === 'response' ? outcome.value.status : outcome?.$case === 'refusal' ? `${outcome.value.code}:${outcome.value.param}` : 'none'));

    it('holds or refuses each reservation as its own call would, in one statement per tier, answering in the request’s order', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 3, price: 1500 });
      const other = await eventWithTier(claims, { capacity: 5 });
      const repeated = request(eventId, tierId);
      const statements = jest.spyOn(ReservationRepository.prototype, 'reserveAll');
      let answer: catalogV1.ReservationOutcomes;
      try {
        answer = await reserveTogether(claims, [
          repeated,
          request(eventId, tierId, { quantity: 2 }),
          request(other.eventId, other.tierId, { quantity: 2 }),
          request(eventId, tierId),
          request(eventId, tierId, { quantity: 0 }),
          request(eventId, newId('tier')),
        ]);
        // One per tier named: the first tier's three (its zero quantity is refused before), the other's, the unknown one's.
        expect(statements.mock.calls.map((call) => call[3].length).sort()).toEqual([1, 1, 3]);
      } finally {
        statements.mockRestore();
      }
      expect(summary(answer)).toEqual(['held', 'held', 'held', 'sold_out:', 'parameter_invalid:quantity', 'resource_missing:tier_id']);
      const first = answer.outcomes[0]!.outcome;
      expect(first?.$case === 'response' && first.value).toMatchObject({ id: repeated.reservation_id, quote: { total: 1500 }, tier: { id: tierId } });
      expect(await counters(tierId)).toEqual({ held: 3, sold: 0 });
      expect(await counters(other.tierId)).toEqual({ held: 2, sold: 0 });
      // The same reservation again, in another call, answers it as it is and takes nothing more.
      expect(summary(await reserveTogether(claims, [repeated]))).toEqual(['held']);
      expect(await counters(tierId)).toEqual({ held: 3, sold: 0 });
    });

    it('commits each reservation on its own: a settled or unknown one is refused, the others committed', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 10 });
      const [kept, released] = await Promise.all([reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 2 }), reserve(claims, { event_id: eventId, tier_id: tierId })]);
      await release(claims, released.id);
      const answer = await commitTogether(claims, [kept.id, released.id, newId('iss'), kept.id]);
      expect(summary(answer)).toEqual(['committed', 'reservation_released:', 'resource_missing:reservation_id', 'committed']);
      expect(await counters(tierId)).toEqual({ held: 0, sold: 2 });
    });

    it('keeps tenants apart: another tenant’s call commits none of the reservations', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims);
      const held = await reserve(claims, { event_id: eventId, tier_id: tierId });
      expect(summary(await commitTogether(tenant(), [held.id]))).toEqual(['resource_missing:reservation_id']);
      expect(await counters(tierId)).toEqual({ held: 1, sold: 0 });
    });

    it('refuses a call standing for more than 500 whole, holding nothing', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 1000 });
      await expect(reserveTogether(claims, Array.from({ length: 501 }, () => request(eventId, tierId)))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'calls' });
      await expect(commitTogether(claims, Array.from({ length: 501 }, () => newId('iss')))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'calls' });
      expect(await counters(tierId)).toEqual({ held: 0, sold: 0 });
    });
  });

  describe('expiry', () => {
    const sweepAt = (at: Date) => new ReleaseExpiredReservationsUseCase(catalog.prisma, reads.generations, () => at).execute();
    const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

    it('releases what expired and nothing else, once', async () => {
      const claims = tenant();
      const { eventId, tierId } = await eventWithTier(claims, { capacity: 10 });
      const shortLived = await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 2, ttl_seconds: 60 });
      const longLived = await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 3, ttl_seconds: 600 });
      const committed = await reserve(claims, { event_id: eventId, tier_id: tierId, quantity: 1, ttl_seconds: 60 });
      await commit(claims, committed.id);
      const generation = () => reads.redis.get(catalogReadsGenerationEntry(claims.tenant!.account_id, claims.tenant!.mode));
      const beforeSweep = await generation();

      expect(await sweepAt(later(120))).toBeGreaterThanOrEqual(1);
      expect(await counters(tierId)).toEqual({ held: 3, sold: 1 });
      const afterSweep = await generation();
      expect(afterSweep).not.toBe(beforeSweep); // the gateways' read caches drop the tenant's kept answers (decision 0051)
      expect(await sweepAt(later(120))).toBe(0);
      expect(await generation()).toBe(afterSweep);
      await expect(commit(claims, shortLived.id)).rejects.toMatchObject({ code: 'reservation_released', message: expect.stringContaining('when it expired') });
      expect(await commit(claims, longLived.id)).toMatchObject({ status: 'committed' });
      expect(await counters(tierId)).toEqual({ held: 0, sold: 4 });
    });

    it('releases more than one batch, across tiers, while settlements race it, and the counters match the reservations', async () => {
      const claims = tenant();
      const first = await eventWithTier(claims, { capacity: 1000, max_per_order: 1 });
      const second = await eventWithTier(claims, { capacity: 1000, max_per_order: 1 });
      const reservations = await Promise.all(
        Array.from({ length: 700 }, (_, index) => {
          const { eventId, tierId } = index % 2 === 0 ? first : second;
          return reserve(claims, { event_id: eventId, tier_id: tierId, ttl_seconds: 60 });
        }),
      );
      const settlements = reservations.slice(0, 200).map((reservation, index) =>
        (index % 2 === 0 ? commit : release)(claims, reservation.id).then(
          () => 'settled',
          (error: { code: string }) => error.code,
        ),
      );
      const [outcomes] = await Promise.all([Promise.all(settlements), sweepAt(later(120))]);
      expect(outcomes.every((outcome) => ['settled', 'reservation_released'].includes(outcome))).toBe(true);
      await sweepAt(later(120));

      for (const { tierId } of [first, second]) {
        const rows = await catalog.prisma.inventoryReservation.groupBy({ by: ['status'], where: { tier_id: tierId }, _sum: { quantity: true } });
        const total = (status: string) => rows.find((row) => row.status === status)?._sum.quantity ?? 0;
        expect(total('held')).toBe(0);
        expect(await counters(tierId)).toEqual({ held: 0, sold: total('committed') });
      }
      expect(await catalog.prisma.inventoryReservation.count({ where: { tier_id: { in: [first.tierId, second.tierId] }, status: 'released' } })).toBeGreaterThan(500);
    });
  });
});
