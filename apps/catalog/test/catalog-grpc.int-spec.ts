import path from 'node:path';
import type { InternalClaims, Mode, Tenant } from '@ticketing/auth';
import type { ApiError } from '@ticketing/errors';
import { catalogReadsGenerationEntry, catalogV1 } from '@ticketing/contracts';
import { callUnary, createGrpcClient, type RunningGrpcServer, startGrpcServer } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { createTestDatabase, waitForLockWaiters, type TestDatabase } from '@ticketing/testing';
import { createCatalogPrisma, type PrismaClient } from '../src/db';
import { catalogGrpcServices } from '../src/grpc/services';
import { DiscountTargetRepository } from '../src/repositories/discount-target.repository';
import { DiscountRepository } from '../src/repositories/discount.repository';
import { EventRepository } from '../src/repositories/event.repository';
import { TierRepository } from '../src/repositories/tier.repository';
import { CreateDiscountUseCase } from '../src/usecases/create-discount/create-discount.usecase';
import { RecordSeatChangeUseCase } from '../src/usecases/record-seat-change/record-seat-change.usecase';
import { createEventRequest, createTierRequest, listEventsRequest, updateEventRequest, venue } from './support/requests';
import { useReadGenerations } from './support/read-generations';

const tokenSecret = 'catalog-test-secret-0123456789';
const options = { tokenSecret, deadlineMs: 10_000 };

/** Organizations, the full event, tiers, seat maps and similar events, through catalog's real gRPC server on real PostgreSQL. */
describe('catalog gRPC services (real PostgreSQL, real gRPC)', () => {
  const reads = useReadGenerations();
  let database: TestDatabase;
  let prisma: PrismaClient;
  let server: RunningGrpcServer;
  let events: catalogV1.EventServiceClient;
  let organizations: catalogV1.OrganizationServiceClient;
  let tiers: catalogV1.TierServiceClient;
  let seatMaps: catalogV1.SeatMapServiceClient;

  beforeAll(async () => {
    database = await createTestDatabase('catalog', path.join(__dirname, '../prisma/migrations'));
    prisma = createCatalogPrisma(database.url);
    server = await startGrpcServer(catalogGrpcServices(prisma, { tokenSecret, logger: createLogger('catalog-test', 'silent') }, reads.generations), 0);
    const address = `127.0.0.1:${server.port}`;
    events = createGrpcClient(catalogV1.EventServiceClient, address);
    organizations = createGrpcClient(catalogV1.OrganizationServiceClient, address);
    tiers = createGrpcClient(catalogV1.TierServiceClient, address);
    seatMaps = createGrpcClient(catalogV1.SeatMapServiceClient, address);
  });

  afterAll(async () => {
    for (const client of [events, organizations, tiers, seatMaps]) client.close();
    await server.shutdown();
    await prisma.$disconnect();
    await database.drop();
  });

  /** A fresh tenant per test, so no test sees another's rows. */
  const tenant = (mode: Mode = 'test'): InternalClaims => ({ request_id: 'req_test', tenant: { account_id: newId('acct'), mode } });
  const tenantOf = (claims: InternalClaims): Tenant => ({ accountId: claims.tenant!.account_id, mode: claims.tenant!.mode });
  const outboxTypes = async (key: string) => (await prisma.outboxMessage.findMany({ where: { message_key: key }, orderBy: { position: 'asc' } })).map((row) => (row.payload as { type: string }).type);

  describe('organizations', () => {
    it('creates, updates and lists organizations, each change with its outbox message', async () => {
      const claims = tenant();
      const created = await callUnary(organizations.createOrganization.bind(organizations), { name: ' Northside ', description: '', website: 'https://northside.example', contact_email: '' }, claims, options);
      expect(created).toMatchObject({ name: 'Northside', website: 'https://northside.example', description: '', contact_email: '' });
      const updated = await callUnary(organizations.updateOrganization.bind(organizations), { id: created.id, website: '', contact_email: 'box@northside.example' }, claims, options);
      expect(updated).toMatchObject({ website: '', contact_email: 'box@northside.example' });
      expect(await outboxTypes(created.id)).toEqual(['organization.created', 'organization.updated']);
      const listed = await callUnary(organizations.listOrganizations.bind(organizations), { page: { limit: 10, starting_after: '' } }, claims, options);
      expect(listed.data.map((organization) => organization.id)).toEqual([created.id]);
      await expect(callUnary(organizations.getOrganization.bind(organizations), { id: created.id }, tenant('live'), options)).rejects.toMatchObject({ code: 'resource_missing' });
    });

    it('refuses an event naming another tenant’s organization, and writes nothing', async () => {
      const owner = tenant();
      const organization = await callUnary(organizations.createOrganization.bind(organizations), { name: 'Theirs', description: '', website: '', contact_email: '' }, owner, options);
      const before = await prisma.event.count();
      await expect(callUnary(events.createEvent.bind(events), createEventRequest({ organization_id: organization.id }), tenant(), options)).rejects.toMatchObject({
        code: 'resource_missing',
        param: 'organization_id',
        status: 400,
      });
      expect(await prisma.event.count()).toBe(before);
    });
  });

  describe('events', () => {
    it('stores the full event and answers it with its tiers', async () => {
      const claims = tenant();
      const event = await callUnary(
        events.createEvent.bind(events),
        createEventRequest({
          description: 'Open-air jazz.',
          venue: venue({ country: 'nl' }),
          ends_at: '2027-04-01T23:00:00Z',
          category: 'Music',
          tags: ['Jazz', 'jazz', 'outdoor'],
          currency: 'eur',
          waiting_room: { enabled: true, admission_rate_per_minute: 300 },
        }),
        claims,
        options,
      );
      expect(event).toMatchObject({
        status: 'draft',
        description: 'Open-air jazz.',
        venue: { name: 'Paradiso', city: 'Amsterdam', country: 'NL', timezone: 'Europe/Amsterdam', address: '' },
        ends_at: '2027-04-01T23:00:00.000Z',
        category: 'music',
        tags: ['jazz', 'outdoor'],
        currency: 'EUR',
        waiting_room: { enabled: true, admission_rate_per_minute: 300 },
        tiers: [],
        has_seatmap: false,
      });
      const tier = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id), claims, options);
      const fetched = await callUnary(events.getEvent.bind(events), { id: event.id }, claims, options);
      expect(fetched.tiers).toEqual([tier]);
      expect(tier).toMatchObject({ currency: 'EUR', price: 4500, capacity: 100, held: 0, sold: 0, min_per_order: 1, max_per_order: 0 });
    });

    it('keeps a waiting room’s rate when an update leaves it out: pausing and resuming the room needs no rate', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest({ waiting_room: { enabled: true, admission_rate_per_minute: 300 } }), claims, options);
      const room = async (waitingRoom: { enabled: boolean; admission_rate_per_minute: number }) =>
        (await callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { waiting_room: waitingRoom }), claims, options)).waiting_room;
      expect(await room({ enabled: false, admission_rate_per_minute: 0 })).toEqual({ enabled: false, admission_rate_per_minute: 300 });
      expect(await room({ enabled: true, admission_rate_per_minute: 0 })).toEqual({ enabled: true, admission_rate_per_minute: 300 });
      expect(await room({ enabled: true, admission_rate_per_minute: 120 })).toEqual({ enabled: true, admission_rate_per_minute: 120 });

      const roomless = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
      await expect(callUnary(events.updateEvent.bind(events), updateEventRequest(roomless.id, { waiting_room: { enabled: true, admission_rate_per_minute: 0 } }), claims, options)).rejects.toMatchObject({
        code: 'parameter_missing',
        param: 'waiting_room.admission_rate_per_minute',
      });
    });

    it('moves through draft → published → canceled, announcing each status change as its own message', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
      await callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { name: 'Renamed' }), claims, options);
      await callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { status: 'published' }), claims, options);
      const canceled = await callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { status: 'canceled' }), claims, options);
      expect(canceled.status).toBe('canceled');
      expect(await outboxTypes(event.id)).toEqual(['event.created', 'event.updated', 'event.published', 'event.canceled']);
      const message = await prisma.outboxMessage.findFirst({ where: { message_key: event.id, topic: 'catalog.event.v1' }, orderBy: { position: 'desc' } });
      expect(message?.payload).toMatchObject({ type: 'event.canceled', data: { event_id: event.id, status: 'canceled', name: 'Renamed' } });
    });

    it('refuses illegal transitions and changes to a final event with 409, writing nothing', async () => {
      const claims = tenant();
      const draft = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
      await expect(callUnary(events.updateEvent.bind(events), updateEventRequest(draft.id, { status: 'completed' }), claims, options)).rejects.toMatchObject({
        code: 'event_status_transition_invalid',
        status: 409,
      });
      await callUnary(events.updateEvent.bind(events), updateEventRequest(draft.id, { status: 'published' }), claims, options);
      await callUnary(events.updateEvent.bind(events), updateEventRequest(draft.id, { status: 'completed' }), claims, options);
      const messagesBefore = await outboxTypes(draft.id);
      await expect(callUnary(events.updateEvent.bind(events), updateEventRequest(draft.id, { status: 'published' }), claims, options)).rejects.toMatchObject({
        code: 'event_status_transition_invalid',
      });
      await expect(callUnary(events.updateEvent.bind(events), updateEventRequest(draft.id, { name: 'Encore' }), claims, options)).rejects.toMatchObject({ code: 'event_finalized', status: 409 });
      await expect(callUnary(tiers.createTier.bind(tiers), createTierRequest(draft.id), claims, options)).rejects.toMatchObject({ code: 'event_finalized' });
      expect(await outboxTypes(draft.id)).toEqual(messagesBefore);
      expect((await callUnary(events.getEvent.bind(events), { id: draft.id }, claims, options)).name).toBe('Dockside');
    });

    it('keeps the currency once the event has tiers, and ends after it starts', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest({ currency: 'EUR' }), claims, options);
      expect((await callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { currency: 'GBP' }), claims, options)).currency).toBe('GBP');
      await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id), claims, options);
      await expect(callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { currency: 'EUR' }), claims, options)).rejects.toMatchObject({
        code: 'event_currency_locked',
        param: 'currency',
      });
      await expect(callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { ends_at: '2027-04-01T17:00:00Z' }), claims, options)).rejects.toMatchObject({
        code: 'parameter_invalid',
        param: 'ends_at',
      });
    });

    it('keeps the currency while a discount of a fixed amount names the event, and refuses a change that waited for such a discount being written (decision 0011)', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest({ currency: 'JPY' }), claims, options);
      const discounts = new CreateDiscountUseCase(prisma);
      await discounts.execute(tenantOf(claims), { code: '', percent_off: 10, currency: '', applies_to: { event_ids: [event.id], tier_ids: [] }, valid_from: '', valid_until: '' });
      expect((await callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { currency: 'EUR' }), claims, options)).currency).toBe('EUR');
      const fixed = await discounts.execute(tenantOf(claims), { code: '', amount_off: 500, currency: 'EUR', applies_to: { event_ids: [event.id], tier_ids: [] }, valid_from: '', valid_until: '' });
      await expect(callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { currency: 'JPY' }), claims, options)).rejects.toMatchObject({
        code: 'event_currency_locked',
        param: 'currency',
        message: expect.stringContaining(fixed.id),
      });

      const other = await callUnary(events.createEvent.bind(events), createEventRequest({ currency: 'EUR' }), claims, options);
      let currencyChange!: Promise<unknown>;
      await prisma.$transaction(
        async (tx) => {
          // A discount being written for the event holds its shared lock, as creating or changing one does, when the change arrives.
          await new DiscountTargetRepository(tx).find(tenantOf(claims), { event_ids: [other.id], tier_ids: [] });
          await new DiscountRepository(tx).create(tenantOf(claims), { code: null, value: { percent_off: null, amount_off: 700, currency: 'EUR' }, event_ids: [other.id], tier_ids: [], valid_from: null, valid_until: null, max_redemptions: null, max_redemptions_per_customer: null });
          currencyChange = callUnary(events.updateEvent.bind(events), updateEventRequest(other.id, { currency: 'USD' }), claims, options).catch((error: ApiError) => error.code);
          await waitForLockWaiters(prisma);
        },
        { timeout: 10_000 },
      );
      expect(await currencyChange).toBe('event_currency_locked');
    });

    it('refuses a currency change that waited for the lock of a tier being created, once the tier is in', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest({ currency: 'EUR' }), claims, options);
      let currencyChange!: Promise<unknown>;
      await prisma.$transaction(
        async (tx) => {
          // A tier being created holds the event's lock, as CreateTierUseCase does, when the change arrives.
          await new EventRepository(tx).lock(tenantOf(claims), event.id);
          await new TierRepository(tx).create(tenantOf(claims), event.id, { name: 'GA', price: 4500, capacity: 5, sales_start_at: null, sales_end_at: null, min_per_order: 1, max_per_order: null, seated: false, rank: 0 });
          currencyChange = callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { currency: 'USD' }), claims, options).catch((error: ApiError) => error.code);
          await waitForLockWaiters(prisma);
        },
        { timeout: 10_000 },
      );
      expect(await currencyChange).toBe('event_currency_locked');
      expect((await callUnary(events.getEvent.bind(events), { id: event.id }, claims, options)).currency).toBe('EUR');
    });

    it('filters lists by status, organization, start window and name, combined with the page', async () => {
      const claims = tenant();
      const organization = await callUnary(organizations.createOrganization.bind(organizations), { name: 'Org', description: '', website: '', contact_email: '' }, claims, options);
      const make = (name: string, starts_at: string, organization_id = '') => callUnary(events.createEvent.bind(events), createEventRequest({ name, starts_at, organization_id }), claims, options);
      const spring = await make('Spring Jazz', '2027-04-01T18:00:00Z', organization.id);
      const summer = await make('Summer Jazz', '2027-07-01T18:00:00Z', organization.id);
      const autumn = await make('Autumn Rock', '2027-10-01T18:00:00Z');
      await callUnary(events.updateEvent.bind(events), updateEventRequest(summer.id, { status: 'published' }), claims, options);
      const ids = async (request: Partial<catalogV1.ListEventsRequest>) => (await callUnary(events.listEvents.bind(events), listEventsRequest(request), claims, options)).data.map((event) => event.id);

      expect(await ids({ status: 'draft' })).toEqual([autumn.id, spring.id]);
      expect(await ids({ organization_id: organization.id })).toEqual([summer.id, spring.id]);
      expect(await ids({ starts_after: '2027-05-01T00:00:00Z', starts_before: '2027-12-01T00:00:00Z' })).toEqual([autumn.id, summer.id]);
      expect(await ids({ q: 'JAZZ' })).toEqual([summer.id, spring.id]);
      expect(await ids({ q: 'jazz', page: { limit: 1, starting_after: summer.id } })).toEqual([spring.id]);
      await expect(ids({ status: 'postponed' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'status' });
    });

    it('matches q literally: % and _ are not wildcards', async () => {
      const claims = tenant();
      const percent = await callUnary(events.createEvent.bind(events), createEventRequest({ name: '100% Jazz' }), claims, options);
      await callUnary(events.createEvent.bind(events), createEventRequest({ name: '1000 Jazz' }), claims, options);
      const underscore = await callUnary(events.createEvent.bind(events), createEventRequest({ name: 'A_B Session' }), claims, options);
      await callUnary(events.createEvent.bind(events), createEventRequest({ name: 'AXB Session' }), claims, options);
      const ids = async (q: string) => (await callUnary(events.listEvents.bind(events), listEventsRequest({ q }), claims, options)).data.map((event) => event.id);
      expect(await ids('0% j')).toEqual([percent.id]);
      expect(await ids('a_b')).toEqual([underscore.id]);
      expect(await ids('%')).toEqual([percent.id]);
    });
  });

  describe('tiers', () => {
    it('never lets a capacity drop below what is held and sold, however the writes interleave', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
      const tier = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { capacity: 100 }), claims, options);
      // Ticketing's side of the row: holds taken by the same kind of conditional update it uses.
      const hold = () => prisma.$executeRaw`UPDATE tiers SET held = held + 1 WHERE id = ${tier.id} AND held + sold + 1 <= capacity`;
      const shrink = (capacity: number) =>
        callUnary(tiers.updateTier.bind(tiers), { event_id: event.id, id: tier.id, capacity }, claims, options).then(
          () => ({ capacity, ok: true }),
          (error: { code?: string }) => {
            expect(error.code).toBe('capacity_below_committed');
            return { capacity, ok: false };
          },
        );
      const holds = Array.from({ length: 60 }, hold);
      const shrinks = [90, 70, 50, 40, 30, 20, 10].map(shrink);
      const [holdResults, shrinkResults] = await Promise.all([Promise.all(holds), Promise.all(shrinks)]);

      const final = await prisma.tier.findUniqueOrThrow({ where: { id: tier.id } });
      expect(final.held + final.sold).toBeLessThanOrEqual(final.capacity);
      expect(final.held).toBe(holdResults.reduce((sum, count) => sum + count, 0));
      expect(shrinkResults.some((result) => result.ok)).toBe(true);
      await expect(callUnary(tiers.updateTier.bind(tiers), { event_id: event.id, id: tier.id, capacity: final.held - 1 }, claims, options)).rejects.toMatchObject({
        code: 'capacity_below_committed',
        param: 'capacity',
        status: 409,
      });
    });

    it('refuses a tier in another currency and inconsistent order limits, writing nothing', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest({ currency: 'EUR' }), claims, options);
      await expect(callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { currency: 'USD' }), claims, options)).rejects.toMatchObject({ param: 'currency', status: 400 });
      await expect(callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { min_per_order: 4, max_per_order: 2 }), claims, options)).rejects.toMatchObject({ param: 'max_per_order' });
      await expect(callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { price: -1 }), claims, options)).rejects.toMatchObject({ param: 'price' });
      expect(await prisma.tier.count({ where: { event_id: event.id } })).toBe(0);
      expect(await outboxTypes(event.id)).toEqual(['event.created']);
    });

    it('updates a tier, clearing what is sent empty, and announces tier.created and tier.updated on the event’s key', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
      const tier = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { max_per_order: 6, sales_end_at: '2027-03-30T00:00:00Z' }), claims, options);
      const updated = await callUnary(tiers.updateTier.bind(tiers), { event_id: event.id, id: tier.id, price: 5000, max_per_order: 0, sales_end_at: '' }, claims, options);
      expect(updated).toMatchObject({ price: 5000, max_per_order: 0, sales_end_at: '' });
      expect(await outboxTypes(event.id)).toEqual(['event.created', 'tier.created', 'tier.updated']);
      await expect(callUnary(tiers.updateTier.bind(tiers), { event_id: event.id, id: tier.id, name: 'x' }, tenant(), options)).rejects.toMatchObject({ code: 'resource_missing' });
    });
  });

  describe('seat maps', () => {
    const seatChanges = () => new RecordSeatChangeUseCase(prisma, 'catalog.seat-change.test', reads.generations);

    it('keeps each seat’s status from ticketing’s messages, once per message, and guards held seats', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
      const seated = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { seated: true }), claims, options);
      const sections = [{ label: 'Stalls', rows: [{ label: 'A', seats: ['1', '2', '3'].map((label) => ({ label, tier_id: seated.id })) }] }];
      const set = await callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections }, claims, options);
      expect(set).toMatchObject({ seat_count: 3, available_count: 3 });
      expect((await callUnary(events.getEvent.bind(events), { id: event.id }, claims, options)).has_seatmap).toBe(true);

      const envelope = (type: 'seat.held' | 'seat.sold' | 'seat.released', seatIds: string[]) => ({
        id: newId('msg'),
        type,
        account_id: claims.tenant!.account_id,
        mode: claims.tenant!.mode,
        occurred_at: new Date().toISOString(),
        data: { event_id: event.id, seat_ids: seatIds, hold_id: 'hold_1' },
      });
      const otherMode = { ...envelope('seat.held', ['Stalls:A:3']), mode: 'live' as const };
      expect(await seatChanges().execute(otherMode)).toBe('no_such_event');
      const held = envelope('seat.held', ['Stalls:A:1', 'Stalls:A:2']);
      const generation = () => reads.redis.get(catalogReadsGenerationEntry(claims.tenant!.account_id, claims.tenant!.mode));
      const beforeHeld = await generation();
      expect(await seatChanges().execute(held)).toBe('applied');
      // An applied change is announced to the gateways' read caches (decision 0051); a redelivery changes nothing.
      const afterHeld = await generation();
      expect(afterHeld).not.toBe(beforeHeld);
      expect(await seatChanges().execute(held)).toBe('redelivery');
      expect(await generation()).toBe(afterHeld);
      await seatChanges().execute(envelope('seat.sold', ['Stalls:A:2']));
      const map = await callUnary(seatMaps.getSeatMap.bind(seatMaps), { event_id: event.id }, claims, options);
      expect(map.sections[0]!.rows[0]!.seats.map((seat) => [seat.id, seat.status])).toEqual([
        ['Stalls:A:1', 'held'],
        ['Stalls:A:2', 'sold'],
        ['Stalls:A:3', 'available'],
      ]);
      expect(map).toMatchObject({ available_count: 1, held_count: 1, sold_count: 1 });

      const withoutHeldSeat = [{ label: 'Stalls', rows: [{ label: 'A', seats: ['2', '3'].map((label) => ({ label, tier_id: seated.id })) }] }];
      await expect(callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections: withoutHeldSeat }, claims, options)).rejects.toMatchObject({
        code: 'seatmap_locked',
        status: 409,
      });
      await seatChanges().execute(envelope('seat.released', ['Stalls:A:1']));
      expect((await callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections: withoutHeldSeat }, claims, options)).seat_count).toBe(2);
      // Each layout also sets the seated tier's capacity to its seats: 3, then 2.
      expect(await outboxTypes(event.id)).toEqual(['event.created', 'tier.created', 'seatmap.updated', 'tier.updated', 'seatmap.updated', 'tier.updated']);
    });

    it('ignores a seat message older than the seat’s last change: a late held after a release, a late release after a sale (decision 0014)', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
      const seated = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { seated: true }), claims, options);
      const sections = [{ label: 'Stalls', rows: [{ label: 'A', seats: ['1', '2'].map((label) => ({ label, tier_id: seated.id })) }] }];
      const set = await callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections }, claims, options);
      const publishedAt = (second: number) => new Date(Date.UTC(2026, 10, 25, 12, 0, second)).toISOString();
      const message = (type: 'seat.held' | 'seat.sold' | 'seat.released', seatId: string, second: number) => ({
        id: newId('msg'),
        type,
        account_id: claims.tenant!.account_id,
        mode: claims.tenant!.mode,
        occurred_at: publishedAt(second),
        data: { event_id: event.id, seat_ids: [seatId], hold_id: `hold_${second}` },
      });
      const statuses = async () => (await callUnary(seatMaps.getSeatMap.bind(seatMaps), { event_id: event.id }, claims, options)).sections[0]!.rows[0]!.seats.map((seat) => seat.status);
      const mapUpdatedAt = async () => (await callUnary(seatMaps.getSeatMap.bind(seatMaps), { event_id: event.id }, claims, options)).updated_at;

      await seatChanges().execute(message('seat.held', 'Stalls:A:1', 1));
      // The map changed with its seat's status, not only with its layout: a client polling it sees the hold.
      const afterHold = await mapUpdatedAt();
      expect(new Date(afterHold).getTime()).toBeGreaterThan(new Date(set.updated_at).getTime());
      await seatChanges().execute(message('seat.released', 'Stalls:A:1', 3));
      await seatChanges().execute(message('seat.sold', 'Stalls:A:2', 5));
      // Replayed from the dead-letter topic, or redelivered, after the seats' later changes.
      expect(await seatChanges().execute(message('seat.held', 'Stalls:A:1', 2))).toBe('applied');
      const beforeLateMessages = await mapUpdatedAt();
      expect(await seatChanges().execute(message('seat.released', 'Stalls:A:2', 4))).toBe('applied');
      expect(await statuses()).toEqual(['available', 'sold']);
      expect(await mapUpdatedAt()).toBe(beforeLateMessages);

      // A later change still applies, to a seat released before as to one never held.
      await seatChanges().execute(message('seat.held', 'Stalls:A:1', 6));
      expect(await statuses()).toEqual(['held', 'sold']);
      // A seat map may drop a seat made available again.
      const withoutFirst = [{ label: 'Stalls', rows: [{ label: 'A', seats: [{ label: '2', tier_id: seated.id }] }] }];
      await seatChanges().execute(message('seat.released', 'Stalls:A:1', 7));
      expect((await callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections: withoutFirst }, claims, options)).seat_count).toBe(1);
    });

    it('gives each seated tier as many tickets as it has seats, and takes no capacity change for it but through the seat map', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
      const stalls = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { seated: true, capacity: 2 }), claims, options);
      const circle = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { name: 'Circle', seated: true, capacity: 50 }), claims, options);
      const standing = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { name: 'Standing', capacity: 300 }), claims, options);
      const row = (label: string, tierId: string, count: number) => ({ label, seats: Array.from({ length: count }, (_, seat) => ({ label: String(seat + 1), tier_id: tierId })) });
      const setTo = (rows: ReturnType<typeof row>[]) => callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections: [{ label: 'Hall', rows }] }, claims, options);
      const capacities = async () => (await callUnary(tiers.listTiers.bind(tiers), { event_id: event.id, page: { limit: 10, starting_after: '' } }, claims, options)).data.map((tier) => [tier.name, tier.capacity]);

      // Four Stalls seats on a tier of capacity 2 could be held, and two holds never sold; Circle's 50 had no seats at all.
      await setTo([row('A', stalls.id, 4)]);
      expect(Object.fromEntries(await capacities())).toEqual({ [stalls.name]: 4, Circle: 0, Standing: 300 });
      await setTo([row('A', stalls.id, 3), row('B', circle.id, 5)]);
      expect(Object.fromEntries(await capacities())).toEqual({ [stalls.name]: 3, Circle: 5, Standing: 300 });

      await expect(callUnary(tiers.updateTier.bind(tiers), { event_id: event.id, id: stalls.id, capacity: 10 }, claims, options)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'capacity' });
      expect((await callUnary(tiers.updateTier.bind(tiers), { event_id: event.id, id: standing.id, capacity: 250 }, claims, options)).capacity).toBe(250);

      // A seated tier added now has no seats in the map: capacity 0 until the next seat map gives it some.
      await expect(callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { name: 'Balcony', seated: true, capacity: 100 }), claims, options)).rejects.toMatchObject({
        code: 'parameter_invalid',
        param: 'capacity',
      });
      expect(Object.fromEntries(await capacities())).toEqual({ [stalls.name]: 3, Circle: 5, Standing: 250 });
      const balcony = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { name: 'Balcony', seated: true, capacity: 0 }), claims, options);
      expect(balcony).toMatchObject({ capacity: 0, held: 0, sold: 0 });
      expect((await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { name: 'Lawn', capacity: 100 }), claims, options)).capacity).toBe(100);
      await setTo([row('A', stalls.id, 3), row('B', circle.id, 5), row('C', balcony.id, 4)]);
      expect(Object.fromEntries(await capacities())).toMatchObject({ Balcony: 4 });
    });

    it('edits a seated tier whose seat map gave it fewer seats than its minimum order, refusing only a change of that minimum (decision 0048)', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
      const boxes = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { name: 'Boxes', seated: true, capacity: 0, min_per_order: 3 }), claims, options);
      const seats = [1, 2].map((seat) => ({ label: String(seat), tier_id: boxes.id }));
      await callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections: [{ label: 'Hall', rows: [{ label: 'A', seats }] }] }, claims, options);

      const renamed = await callUnary(tiers.updateTier.bind(tiers), { event_id: event.id, id: boxes.id, name: 'Royal boxes' }, claims, options);
      expect(renamed).toMatchObject({ name: 'Royal boxes', capacity: 2, min_per_order: 3 });
      await expect(callUnary(tiers.updateTier.bind(tiers), { event_id: event.id, id: boxes.id, min_per_order: 4 }, claims, options)).rejects.toMatchObject({
        code: 'parameter_invalid',
        param: 'min_per_order',
      });
      expect((await callUnary(tiers.updateTier.bind(tiers), { event_id: event.id, id: boxes.id, min_per_order: 2 }, claims, options)).min_per_order).toBe(2);
    });

    it('locates seats for a sale only while their tier is on sale, and for comps on any event not canceled or completed (decision 0033)', async () => {
      const claims = tenant();
      const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest({ starts_at: daysFromNow(30) }), claims, options);
      const onSale = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { seated: true }), claims, options);
      const salesStart = daysFromNow(1);
      const later = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { name: 'Later', seated: true, sales_start_at: salesStart }), claims, options);
      const sections = [{ label: 'Stalls', rows: [{ label: 'A', seats: [{ label: '1', tier_id: onSale.id }, { label: '2', tier_id: later.id }] }] }];
      await callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections }, claims, options);
      const locate = (seatIds: string[], forSale: boolean) => callUnary(seatMaps.locateSeats.bind(seatMaps), { event_id: event.id, seat_ids: seatIds, for_sale: forSale }, claims, options);

      // A draft sells nothing yet: a hold for a sale could never be sold, while comps are listed before publishing.
      await expect(locate(['Stalls:A:1'], true)).rejects.toMatchObject({ code: 'event_not_on_sale', message: 'The event is draft; only a published event sells tickets.' });
      expect((await locate(['Stalls:A:1', 'Stalls:A:2'], false)).seats).toHaveLength(2);

      await callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { status: 'published' }), claims, options);
      expect((await locate(['Stalls:A:1'], true)).seats).toEqual([{ seat_id: 'Stalls:A:1', tier_id: onSale.id }]);
      // Held before its on-sale, a seat would be bought by whoever held it early, ahead of everyone who waited.
      await expect(locate(['Stalls:A:2'], true)).rejects.toMatchObject({ code: 'tier_not_on_sale', message: expect.stringContaining(`Tier '${later.id}' is not on sale now: it sells from ${salesStart}`) });
      expect((await locate(['Stalls:A:2'], false)).seats).toEqual([{ seat_id: 'Stalls:A:2', tier_id: later.id }]);
      expect(await prisma.$queryRaw`SELECT seat_id FROM seat_locates WHERE event_id = ${event.id} ORDER BY seat_id`).toEqual([{ seat_id: 'Stalls:A:1' }, { seat_id: 'Stalls:A:2' }]);
    });

    it('keeps a seat a hold asked for within the last minute, before catalog hears the hold committed, under its tier', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
      const seated = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { seated: true }), claims, options);
      const vip = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { name: 'VIP', seated: true }), claims, options);
      const layout = (labels: string[], tierOf: (label: string) => string = () => seated.id) => [
        { label: 'Stalls', rows: [{ label: 'A', seats: labels.map((label) => ({ label, tier_id: tierOf(label) })) }] },
      ];
      await callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections: layout(['1', '2', '3']) }, claims, options);

      // A hold located Stalls:A:3; its seat.held has not arrived.
      const located = await callUnary(seatMaps.locateSeats.bind(seatMaps), { event_id: event.id, seat_ids: ['Stalls:A:3'], for_sale: false }, claims, options);
      expect(located).toEqual({ seats: [{ seat_id: 'Stalls:A:3', tier_id: seated.id }], waiting_room_enabled: false });
      const setTo = (sections: ReturnType<typeof layout>) => callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections }, claims, options);
      const locked = { code: 'seatmap_locked', status: 409, message: `Seat Stalls:A:3 was asked for by a seat hold less than 60 s ago, which may still be committing: keep it in the seat map under tier ${seated.id}, or change it after that.` };
      await expect(setTo(layout(['1', '2']))).rejects.toMatchObject(locked);
      await expect(setTo(layout(['1', '2', '3'], (label) => (label === '3' ? vip.id : seated.id)))).rejects.toMatchObject(locked);
      // Other seats may still move, and the located one may stay where it is.
      expect((await setTo(layout(['1', '3', '4']))).seat_count).toBe(3);

      // A minute on, a hold that was going to commit has been heard of (or has failed): the seat is free to go.
      await prisma.$executeRaw`UPDATE seat_locates SET located_at = now() - interval '61 seconds' WHERE event_id = ${event.id}`;
      expect((await setTo(layout(['1', '4']))).seat_count).toBe(2);
      expect(await prisma.$queryRaw`SELECT seat_id FROM seat_locates WHERE event_id = ${event.id}`).toEqual([]);
    });

    it('reads an event, its tiers in rank order and its seat map, exactly as its list shows it', async () => {
      // GetEvent is its own SQL statement; ListEvents reads through Prisma. They must agree, field for field.
      const claims = tenant();
      const event = await callUnary(
        events.createEvent.bind(events),
        createEventRequest({ venue: venue(), tags: ['jazz'], waiting_room: { enabled: true, admission_rate_per_minute: 60 } }),
        claims,
        options,
      );
      const seated = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { seated: true }), claims, options);
      await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { name: 'Balcony', rank: 5, sales_start_at: '2027-01-01T10:00:00.123Z', max_per_order: 4 }), claims, options);
      await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id, { name: 'Box', rank: 1, price: 12_050 }), claims, options);
      const sections = [{ label: 'Stalls', rows: [{ label: 'A', seats: [{ label: '1', tier_id: seated.id }] }] }];
      await callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections }, claims, options);

      const read = await callUnary(events.getEvent.bind(events), { id: event.id }, claims, options);
      const [listed] = (await callUnary(events.listEvents.bind(events), listEventsRequest(), claims, options)).data;
      expect(read).toEqual(listed);
      expect(read).toMatchObject({ has_seatmap: true, tags: ['jazz'], venue: { name: 'Paradiso' }, waiting_room: { enabled: true, admission_rate_per_minute: 60 } });
      expect(read.tiers.map((tier) => [tier.name, tier.price, tier.sales_start_at])).toEqual([
        ['General admission', 4500, ''],
        ['Box', 12_050, ''],
        ['Balcony', 4500, '2027-01-01T10:00:00.123Z'],
      ]);
    });

    it('maps seats only to seated tiers of the event', async () => {
      const claims = tenant();
      const event = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
      const standing = await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id), claims, options);
      const sections = [{ label: 'Floor', rows: [{ label: 'A', seats: [{ label: '1', tier_id: standing.id }] }] }];
      await expect(callUnary(seatMaps.setSeatMap.bind(seatMaps), { event_id: event.id, sections }, claims, options)).rejects.toMatchObject({
        code: 'parameter_invalid',
        param: 'sections[0].rows[0].seats[0].tier_id',
      });
      await expect(callUnary(seatMaps.getSeatMap.bind(seatMaps), { event_id: event.id }, claims, options)).rejects.toMatchObject({ code: 'resource_missing', status: 404 });
    });
  });

  describe('similar events', () => {
    it('ranks the tenant’s other upcoming published events by what they share, and pages through the ranking', async () => {
      const claims = tenant();
      const organization = await callUnary(organizations.createOrganization.bind(organizations), { name: 'Org', description: '', website: '', contact_email: '' }, claims, options);
      const publish = async (fields: Partial<catalogV1.CreateEventRequest>) => {
        const event = await callUnary(events.createEvent.bind(events), createEventRequest(fields), claims, options);
        return callUnary(events.updateEvent.bind(events), updateEventRequest(event.id, { status: 'published' }), claims, options);
      };
      const source = await publish({ organization_id: organization.id, category: 'music', tags: ['jazz'], starts_at: '2030-06-01T19:00:00Z', venue: venue() });
      const twin = await publish({ organization_id: organization.id, category: 'music', tags: ['jazz'], starts_at: '2030-06-08T19:00:00Z', venue: venue() });
      const sameCity = await publish({ starts_at: '2031-06-01T19:00:00Z', venue: venue({ name: 'Melkweg' }) });
      const unrelated = await publish({ starts_at: '2032-01-01T19:00:00Z', category: 'sports' });
      const draft = await callUnary(events.createEvent.bind(events), createEventRequest({ organization_id: organization.id, category: 'music', starts_at: '2030-06-02T19:00:00Z' }), claims, options);
      const past = await publish({ organization_id: organization.id, category: 'music', starts_at: '2020-06-02T19:00:00Z' });

      const page = (starting_after = '', limit = 10) => callUnary(events.listSimilarEvents.bind(events), { id: source.id, page: { limit, starting_after } }, claims, options);
      const ranked = await page();
      expect(ranked.data.map((item) => item.event!.id)).toEqual([twin.id, sameCity.id]);
      expect(ranked.data[0]!.reasons).toEqual(expect.arrayContaining(['same_organization', 'same_category', 'shared_tags', 'same_venue', 'close_in_date']));
      expect(ranked.data[1]!.reasons).toEqual(['same_city']);
      for (const excluded of [unrelated, draft, past, source]) expect(ranked.data.map((item) => item.event!.id)).not.toContain(excluded.id);
      const first = await page('', 1);
      expect(first.has_more).toBe(true);
      expect((await page(first.data[0]!.event!.id, 1)).data.map((item) => item.event!.id)).toEqual([sameCity.id]);
      await expect(page('evt_unknown')).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    });
  });
});
