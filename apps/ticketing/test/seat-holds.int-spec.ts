import path from 'node:path';
import type { InternalClaims, Tenant } from '@ticketing/auth';
import { TICKETING_SEAT_TOPIC } from '@ticketing/contracts';
import { EarlyKeyClaims } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { createTestDatabase, waitForLockWaiters, type TestDatabase } from '@ticketing/testing';
import { createTicketingPrisma, type PrismaClient } from '../src/db';
import { KEY_CLAIM_LEASE_SECONDS } from '../src/grpc/services';
import { UNRECORDED_GRACE_MS } from '../src/domain/seat-hold';
import { SeatHoldRepository } from '../src/repositories/seat-hold.repository';
import { CreateSeatHoldUseCase } from '../src/usecases/seat-holds/create-seat-hold.usecase';
import { ExpireSeatHoldsUseCase } from '../src/usecases/seat-holds/expire-seat-holds.usecase';
import { ReleaseSeatHoldUseCase } from '../src/usecases/seat-holds/release-seat-hold.usecase';
import { AdmissionGate } from '../src/usecases/waiting-room/admission-gate';
import { AdmissionTokens } from '../src/waiting-room/admission-tokens';
import type { QueueStore } from '../src/waiting-room/queue-store';
import { startCatalogDouble, type RunningCatalogDouble } from './support/catalog-double-server';
import { ofType, publishedOn } from './support/published';

const options = { tokenSecret: 'ticketing-test-secret-0123456789', deadlineMs: 10_000 };
const logger = createLogger('ticketing-test', 'silent');

/** Seat holds (decision 0033) on real PostgreSQL, with catalog's seat map from the double. */
describe('seat holds (real PostgreSQL, catalog double)', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;
  let catalogSide: RunningCatalogDouble;
  let createHold: CreateSeatHoldUseCase;
  let releaseHold: ReleaseSeatHoldUseCase;

  beforeAll(async () => {
    database = await createTestDatabase('ticketing', path.join(__dirname, '../prisma/migrations'));
    prisma = createTicketingPrisma(database.url);
    catalogSide = await startCatalogDouble(options, logger);
    // Events here have no waiting room: the gate reads the setting and lets every hold through, never asking the queue.
    const noKeys = new EarlyKeyClaims(prisma, () => undefined, KEY_CLAIM_LEASE_SECONDS, () => undefined);
    createHold = new CreateSeatHoldUseCase(prisma, catalogSide.catalog, new AdmissionGate(prisma, new AdmissionTokens(options.tokenSecret), {} as QueueStore), noKeys);
    releaseHold = new ReleaseSeatHoldUseCase(prisma);
  });

  afterAll(async () => {
    await catalogSide.close();
    await prisma.$disconnect();
    await database.drop();
  });

  const newTenant = (): { claims: InternalClaims; tenant: Tenant } => {
    const accountId = newId('acct');
    return { claims: { request_id: 'req_test', tenant: { account_id: accountId, mode: 'test' } }, tenant: { accountId, mode: 'test' } };
  };
  /** A seated event of `tenant`: one tier, seats S:1:1 … S:rows:perRow. */
  const seatedEvent = (tenant: Tenant, rows = 2, perRow = 5) => {
    const { eventId, tierId } = catalogSide.double.addTier(tenant, { price: 5000, capacity: rows * perRow });
    return { eventId, tierId, seats: catalogSide.double.addSeats(eventId, tierId, rows, perRow) };
  };
  const hold = (who: ReturnType<typeof newTenant>, eventId: string, seatIds: string[], ttlSeconds = 0) =>
    createHold.execute(who.claims, who.tenant, { event_id: eventId, seat_ids: seatIds, ttl_seconds: ttlSeconds });
  const claimedSeats = async (eventId: string) => (await prisma.seatClaim.findMany({ where: { event_id: eventId }, orderBy: { seat_id: 'asc' } })).map((claim) => claim.seat_id);
  const messages = (eventId: string) => publishedOn(prisma, TICKETING_SEAT_TOPIC, eventId);

  it('holds every seat with its tier, for ten minutes by default, and publishes seat.held', async () => {
    const who = newTenant();
    const { eventId, tierId } = seatedEvent(who.tenant);
    const held = await hold(who, eventId, ['S:1:1', 'S:1:2']);
    expect(held).toMatchObject({ id: expect.stringMatching(/^hold_/), event_id: eventId, status: 'active', released_at: null, seats: [{ id: 'S:1:1', tier_id: tierId }, { id: 'S:1:2', tier_id: tierId }] });
    expect(held.expires_at.getTime() - held.created_at.getTime()).toBeGreaterThan(599_000);
    expect(await claimedSeats(eventId)).toEqual(['S:1:1', 'S:1:2']);
    expect(await messages(eventId)).toEqual([
      expect.objectContaining({ type: 'seat.held', data: { event_id: eventId, seat_ids: ['S:1:1', 'S:1:2'], hold_id: held.id, expires_at: held.expires_at.toISOString() } }),
    ]);
  });

  it('holds all or none: a taken seat refuses the whole hold, naming the seats taken', async () => {
    const who = newTenant();
    const { eventId } = seatedEvent(who.tenant);
    await hold(who, eventId, ['S:1:2', 'S:1:3']);
    await expect(hold(who, eventId, ['S:1:1', 'S:1:2', 'S:1:3'])).rejects.toMatchObject({
      code: 'seats_unavailable',
      status: 409,
      param: 'seats',
      message: "Seats 'S:1:2', 'S:1:3' are already taken; no seat was held.",
    });
    expect(await claimedSeats(eventId)).toEqual(['S:1:2', 'S:1:3']);
    expect(await prisma.seatHold.count({ where: { event_id: eventId } })).toBe(1);
    expect((await messages(eventId)).map((message) => message.type)).toEqual(['seat.held']);
  });

  it('refuses bad requests and holds nothing', async () => {
    const who = newTenant();
    const { eventId } = seatedEvent(who.tenant);
    const refusals: Array<[string[], number, string, string]> = [
      [[], 0, 'parameter_missing', 'seats'],
      [['S:1:1', 'S:1:1'], 0, 'parameter_invalid', 'seats[1]'],
      [['S-1-1'], 0, 'parameter_invalid', 'seats[0]'],
      [['S:9:9'], 0, 'parameter_invalid', 'seats'],
      [['S:1:1'], 1801, 'parameter_invalid', 'ttl_seconds'],
      [Array.from({ length: 51 }, (_, index) => `S:1:${index}`), 0, 'parameter_invalid', 'seats'],
    ];
    for (const [seatIds, ttl, code, param] of refusals) {
      await expect(hold(who, eventId, seatIds, ttl)).rejects.toMatchObject({ code, param });
    }
    await expect(hold(who, newId('evt'), ['S:1:1'])).rejects.toMatchObject({ code: 'resource_missing' });
    expect(await claimedSeats(eventId)).toEqual([]);
  });

  it('releases a hold, freeing its seats, once; another tenant cannot', async () => {
    const who = newTenant();
    const { eventId } = seatedEvent(who.tenant);
    const held = await hold(who, eventId, ['S:2:1']);
    const stranger = newTenant();
    await expect(releaseHold.execute(stranger.tenant, { event_id: eventId, hold_id: held.id })).rejects.toMatchObject({ code: 'resource_missing' });
    const released = await releaseHold.execute(who.tenant, { event_id: eventId, hold_id: held.id });
    expect(released).toMatchObject({ id: held.id, status: 'released', released_at: expect.any(Date) });
    expect(await releaseHold.execute(who.tenant, { event_id: eventId, hold_id: held.id })).toEqual(released);
    expect(await claimedSeats(eventId)).toEqual([]);
    expect((await messages(eventId)).map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'seat.held', data: { event_id: eventId, seat_ids: ['S:2:1'], hold_id: held.id, expires_at: held.expires_at.toISOString() } },
      { type: 'seat.released', data: { event_id: eventId, seat_ids: ['S:2:1'], hold_id: held.id, reason: 'released' } },
    ]);
    expect((await hold(who, eventId, ['S:2:1'])).status).toBe('active');
  });

  it('ends expired holds: the sweeper frees their seats, and a new hold takes a seat whose hold ran out', async () => {
    const who = newTenant();
    const { eventId } = seatedEvent(who.tenant);
    const first = await hold(who, eventId, ['S:1:1']);
    const second = await hold(who, eventId, ['S:1:2']);
    await prisma.seatHold.updateMany({ where: { id: { in: [first.id, second.id] } }, data: { expires_at: new Date(Date.now() - 1000) } });

    const taker = await hold(who, eventId, ['S:1:1']);
    expect(taker.status).toBe('active');
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({ status: 'expired' });
    expect(await new ExpireSeatHoldsUseCase(prisma).execute()).toBeGreaterThanOrEqual(1);
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: second.id } })).toMatchObject({ status: 'expired' });
    expect(await claimedSeats(eventId)).toEqual(['S:1:1']);
    const released = ofType(await messages(eventId), 'seat.released').map((message) => message.data);
    expect(released).toEqual(
      expect.arrayContaining([
        { event_id: eventId, seat_ids: ['S:1:1'], hold_id: first.id, reason: 'expired' },
        { event_id: eventId, seat_ids: ['S:1:2'], hold_id: second.id, reason: 'expired' },
      ]),
    );
  });

  it('keeps a hold an issuance took until it is recorded; one never recorded ends after its expiry and the grace, freeing its seats', async () => {
    const who = newTenant();
    const { eventId } = seatedEvent(who.tenant);
    const held = await hold(who, eventId, ['S:1:1']);
    const holds = new SeatHoldRepository(prisma);
    // An issuance whose process dies after taking the hold and before recording itself.
    expect(await holds.take(who.tenant, held.id, 'iss_never_recorded', new Date())).toBe(true);
    expect(await holds.take(who.tenant, held.id, 'iss_second', new Date())).toBe(false);
    await expect(releaseHold.execute(who.tenant, { event_id: eventId, hold_id: held.id })).rejects.toMatchObject({
      code: 'seat_hold_unavailable',
      message: `Seat hold '${held.id}' is taken by a sale still on its way (issuance 'iss_never_recorded'); retry that sale under its Idempotency-Key to get its outcome. If that call was cut off, the hold ends at ${new Date(held.expires_at.getTime() + UNRECORDED_GRACE_MS).toISOString()}.`,
      param: undefined,
    });

    const sweepAt = async (msAfterExpiry: number) => new ExpireSeatHoldsUseCase(prisma, () => new Date(held.expires_at.getTime() + msAfterExpiry)).execute();
    await sweepAt(UNRECORDED_GRACE_MS - 1_000);
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({ status: 'active', taken_by: 'iss_never_recorded' });
    await sweepAt(UNRECORDED_GRACE_MS + 1_000);
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({ status: 'expired', issuance_id: null });
    expect(await claimedSeats(eventId)).toEqual([]);
    expect(ofType(await messages(eventId), 'seat.released').map((message) => message.data)).toEqual([{ event_id: eventId, seat_ids: ['S:1:1'], hold_id: held.id, reason: 'expired' }]);
  });

  it('releases a hold that the issuance which had taken it let go of while the release looked: the answer is the truth', async () => {
    const who = newTenant();
    const { eventId } = seatedEvent(who.tenant);
    const held = await hold(who, eventId, ['S:2:5']);
    const holds = new SeatHoldRepository(prisma);
    expect(await holds.take(who.tenant, held.id, 'iss_refused_meanwhile', new Date())).toBe(true);
    // The release finds the hold taken; before it looks again, the refused issuance lets go of it.
    const lettingGoBeforeTheLook = new Proxy(prisma, {
      get: (client, property) =>
        property === '$transaction'
          ? (work: (tx: PrismaClient) => Promise<unknown>) =>
              client.$transaction((tx) =>
                work(
                  new Proxy(tx, {
                    get: (txClient, txProperty) =>
                      txProperty === 'seatHold'
                        ? new Proxy(txClient.seatHold, {
                            get: (delegate, method) =>
                              method === 'findUnique'
                                ? async (args: Parameters<typeof delegate.findUnique>[0]) => {
                                    await holds.letGo(who.tenant, held.id, 'iss_refused_meanwhile');
                                    return delegate.findUnique(args);
                                  }
                                : Reflect.get(delegate, method),
                          })
                        : Reflect.get(txClient, txProperty),
                  }) as PrismaClient,
                ),
              )
          : Reflect.get(client, property),
    });

    const answer = await new ReleaseSeatHoldUseCase(lettingGoBeforeTheLook).execute(who.tenant, { event_id: eventId, hold_id: held.id });
    expect(answer).toMatchObject({ id: held.id, status: 'released' });
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: held.id } })).toMatchObject({ status: 'released', taken_by: null });
    expect(await claimedSeats(eventId)).toEqual([]);
  });

  it('never holds a seat twice, whatever the concurrency', async () => {
    const who = newTenant();
    const { eventId, seats } = seatedEvent(who.tenant, 2, 5);
    // 30 buyers each want three adjacent seats of ten: many overlap.
    const wanted = Array.from({ length: 30 }, (_, buyer) => [0, 1, 2].map((offset) => seats[(buyer + offset) % seats.length]!));
    const outcomes = await Promise.allSettled(wanted.map((seatIds) => hold(who, eventId, seatIds)));
    const held = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value.seats.map((seat) => seat.id) : []));
    expect(new Set(held).size).toBe(held.length);
    expect(await claimedSeats(eventId)).toEqual([...held].sort());
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(refused.every((outcome) => (outcome as PromiseRejectedResult).reason.code === 'seats_unavailable')).toBe(true);
    expect(held.length).toBeGreaterThanOrEqual(3);
  });

  it('answers holds claiming shared seats in opposite orders 409, never with a deadlock', async () => {
    const who = newTenant();
    const { eventId, tierId } = seatedEvent(who.tenant, 1, 4);
    // A transaction that has claimed S:1:4 and not yet committed stalls the first hold after its first seat.
    let rollBack!: () => void;
    const stalling = prisma
      .$transaction(async (tx) => {
        await new SeatHoldRepository(tx).create(who.tenant, { id: newId('hold'), event_id: eventId, seats: [{ id: 'S:1:4', tier_id: tierId }], purpose: 'sale', created_at: new Date(), expires_at: new Date(Date.now() + 60_000), admission_entry_id: null });
        await new Promise<void>((resolve) => (rollBack = resolve));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const first = hold(who, eventId, ['S:1:1', 'S:1:4', 'S:1:3']);
    await waitForLockWaiters(prisma);
    // The second names two of its seats the other way round: claimed in that order, it would take
    // S:1:3 and wait for S:1:1, while the first, once S:1:4 is free, waits for S:1:3.
    const second = hold(who, eventId, ['S:1:3', 'S:1:1']);
    await waitForLockWaiters(prisma, 2);
    rollBack();
    await stalling;
    const outcomes = await Promise.allSettled([first, second]);
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'held' : (outcome.reason as { code?: string }).code ?? String(outcome.reason)))).toEqual(['held', 'seats_unavailable']);
    expect(await claimedSeats(eventId)).toEqual(['S:1:1', 'S:1:3', 'S:1:4']);
  });

  it('refuses a hold whose seats sell under two tiers, which no issuance could sell, and holds nothing', async () => {
    const who = newTenant();
    const { eventId, seats } = seatedEvent(who.tenant, 1, 2);
    const { tierId: circle } = catalogSide.double.addTier(who.tenant, { price: 9000, capacity: 2, eventId });
    const [circleSeat] = catalogSide.double.addSeats(eventId, circle, 1, 2, 'Circle');
    await expect(hold(who, eventId, [seats[0]!, circleSeat!])).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'seats',
      message: expect.stringContaining(`'${circleSeat}' under '${circle}'. Hold each tier's seats separately.`),
    });
    expect(await claimedSeats(eventId)).toEqual([]);
  });
});
