import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import type { InternalClaims, Mode, Tenant } from '@ticketing/auth';
import { CATALOG_EVENT_TOPIC, createEventParser, TICKETING_SEAT_TOPIC, TICKETING_TICKET_TOPIC, ticketingV1 } from '@ticketing/contracts';
import { EarlyKeyClaims } from '@ticketing/db';
import { ApiError } from '@ticketing/errors';
import { callUnary, createGrpcClient, serviceCalls, startGrpcServer, type CallerOptions, type RunningGrpcServer } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';
import { outboxRow } from '@ticketing/kafka';
import { createLogger } from '@ticketing/observability';
import { connectRedis, type RedisClient } from '@ticketing/redis';
import { TicketCodeSigner } from '@ticketing/ticket-codes';
import { createTestDatabase, waitForLockWaiters, type TestDatabase } from '@ticketing/testing';
import { CatalogInventory, catalogClientsAt, type CatalogClients, type EventFacts } from '../src/catalog/catalog-inventory';
import { SoldOutMemo } from '../src/catalog/sold-out-memo';
import { createTicketingPrisma, type PrismaClient } from '../src/db';
import { Prisma } from '../src/generated/prisma/client';
import { driveUpgrade, KEY_CLAIM_LEASE_SECONDS, ticketingGrpcServices, type TicketingDependencies } from '../src/grpc/services';
import { DriveIssuanceUseCase } from '../src/usecases/drive-issuance/drive-issuance.usecase';
import { IssueTicketsUseCase } from '../src/usecases/issue-tickets/issue-tickets.usecase';
import { RetireTicketUseCase } from '../src/usecases/change-ticket/retire-ticket.usecase';
import { ReleaseSeatHoldUseCase } from '../src/usecases/seat-holds/release-seat-hold.usecase';
import { UpgradeTicketUseCase } from '../src/usecases/change-ticket/upgrade-ticket.usecase';
import { CreateSeatHoldUseCase } from '../src/usecases/seat-holds/create-seat-hold.usecase';
import { AdmissionGate } from '../src/usecases/waiting-room/admission-gate';
import { AdmissionTokens } from '../src/waiting-room/admission-tokens';
import { DeliveryLinks } from '../src/delivery/delivery-links';
import { startTicketPageServer } from '../src/delivery/ticket-page.server';
import { EVENT_SETTINGS_INBOX } from '../src/consumers/catalog-event.consumer';
import { CreateDeliveryLinkUseCase } from '../src/usecases/create-delivery-link/create-delivery-link.usecase';
import { RecordEventSettingsUseCase, type CatalogEventChange } from '../src/usecases/record-event-settings/record-event-settings.usecase';
import { QueueStore } from '../src/waiting-room/queue-store';
import { CancelLateTicketsUseCase, LATE_CANCELLATION_WINDOW_MS } from '../src/usecases/cancel-event-tickets/cancel-event-tickets';
import { EventSettingsRepository } from '../src/repositories/event-settings.repository';
import { RedriveStalledIssuancesUseCase } from '../src/usecases/redrive-stalled-issuances/redrive-stalled-issuances.usecase';
import { ReturnUnitsUseCase } from '../src/usecases/return-units/return-units.usecase';
import { UpgradeRepository } from '../src/repositories/upgrade.repository';
import type { CustomerChoice } from '../src/domain/customer';
import type { TicketingIssuance } from '../src/domain/issuance';
import { IssuanceRepository, type NewIssuance } from '../src/repositories/issuance.repository';
import { TicketRepository, type UnseatedIssue } from '../src/repositories/ticket.repository';
import { startCatalogDouble, type RunningCatalogDouble } from './support/catalog-double-server';
import { PaymentsDouble } from './support/payments.double';
import { ofType, publishedOn } from './support/published';

const tokenSecret = 'ticketing-test-secret-0123456789';
const options: CallerOptions = { tokenSecret, deadlineMs: 10_000 };
const logger = createLogger('ticketing-test', 'silent');
const codes = new TicketCodeSigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());

/**
 * Issuance, customers and tickets through ticketing's real gRPC server on real PostgreSQL, with
 * a catalog double behind gRPC (the end-to-end suite runs the real catalog with it).
 */
describe('ticketing issuance (real PostgreSQL, real gRPC, catalog double)', () => {
  let ticketingDatabase: TestDatabase;
  let prisma: PrismaClient;
  let catalogSide: RunningCatalogDouble;
  let redis: RedisClient;
  const admissionTokens = new AdmissionTokens(tokenSecret);
  const payments = new PaymentsDouble();
  /** Ticketing's dependencies with `inventory` as its catalog. */
  const dependencies = (inventory: CatalogInventory) => ({
    catalog: inventory,
    codes,
    queues: new QueueStore(redis, 600_000),
    admissionTokens,
    deliveryLinks: new DeliveryLinks(tokenSecret, 'http://gateway.test'),
    issuanceConcurrency: 8,
    payments,
  });
  let ticketingServer: RunningGrpcServer;
  let catalogClients: CatalogClients;
  let catalog: CatalogInventory;
  let customers: ticketingV1.CustomerServiceClient;
  let tickets: ticketingV1.TicketServiceClient;

  beforeAll(async () => {
    ticketingDatabase = await createTestDatabase('ticketing', path.join(__dirname, '../prisma/migrations'));
    prisma = createTicketingPrisma(ticketingDatabase.url);
    catalogSide = await startCatalogDouble(options, logger);
    ({ clients: catalogClients, catalog } = catalogSide);
    redis = await connectRedis('redis://127.0.0.1:6379', logger);
    ticketingServer = await startGrpcServer(ticketingGrpcServices(prisma, dependencies(catalog), { tokenSecret, logger }), 0);
    const ticketingAddress = `127.0.0.1:${ticketingServer.port}`;
    customers = createGrpcClient(ticketingV1.CustomerServiceClient, ticketingAddress);
    tickets = createGrpcClient(ticketingV1.TicketServiceClient, ticketingAddress);
  });

  afterAll(async () => {
    for (const client of [customers, tickets]) client.close();
    await ticketingServer.shutdown();
    await catalogSide.close();
    await redis.close();
    await prisma.$disconnect();
    await ticketingDatabase.drop();
  });

  const admissionGate = () => new AdmissionGate(prisma, admissionTokens, new QueueStore(redis, 600_000));
  /** Key claims for use cases called directly, with no Idempotency-Key. */
  const noKeys = () => new EarlyKeyClaims(prisma, () => undefined, KEY_CLAIM_LEASE_SECONDS, () => undefined);
  const seatHolds = () => new CreateSeatHoldUseCase(prisma, catalog, admissionGate(), noKeys());
  const tenant = (mode: Mode = 'test'): InternalClaims => ({ request_id: 'req_test', tenant: { account_id: newId('acct'), mode } });
  const tenantOf = (claims: InternalClaims): Tenant => ({ accountId: claims.tenant!.account_id, mode: claims.tenant!.mode });

  /** An event on sale with one tier priced 2500 EUR. */
  const onSale = async (claims: InternalClaims, { capacity = 10 } = {}) => catalogSide.double.addTier(tenantOf(claims), { price: 2500, capacity });
  /** Such an event whose tier seats S:1:1 and S:1:2, both held in `hold`; `holdSeats` holds seats again. */
  const seatedOnSale = async (claims: InternalClaims) => {
    const { eventId, tierId } = await onSale(claims);
    catalogSide.double.addSeats(eventId, tierId, 1, 2);
    const holdSeats = (seatIds = ['S:1:1', 'S:1:2']) => seatHolds().execute(claims, tenantOf(claims), { event_id: eventId, seat_ids: seatIds, ttl_seconds: 0 });
    return { eventId, tierId, holdSeats, hold: await holdSeats() };
  };

  const saleRequest = (eventId: string, tierId: string, fields: Partial<ticketingV1.IssueTicketsRequest> = {}): ticketingV1.IssueTicketsRequest => ({
    event_id: eventId,
    tier_id: tierId,
    quantity: 2,
    customer: { reference: { $case: 'details', value: { email: 'Ann@Example.com', name: 'Ann Lee' } } },
    payment: { reference: 'order-1', amount: 5000 },
    metadata: { channel: 'box-office' },
    seat_hold_id: '',
    admission_token: '',
    discount_code: '',
    payment_intent_id: '',
    ...fields,
  });
  const issue = (claims: InternalClaims, request: ticketingV1.IssueTicketsRequest, callOptions: CallerOptions = options) =>
    callUnary(tickets.issueTickets.bind(tickets), request, claims, callOptions);
  const tierCounters = async (tierId: string) => catalogSide.double.counters(tierId);
  /** The payload of the ticket.issued an issuance of `tickets` publishes, as the event catalogue has it: a sale's carries saleRequest's metadata. */
  const issuedData = (eventId: string, tierId: string, issuanceId: string, tickets: readonly ticketingV1.Ticket[], fields: { amount: number; kind?: 'sale' | 'comp'; discount_id?: string | null }) => ({
    event_id: eventId,
    tier_id: tierId,
    issuance_id: issuanceId,
    customer_id: tickets[0]!.customer_id,
    ticket_ids: tickets.map((ticket) => ticket.id),
    amount: fields.amount,
    currency: 'EUR',
    kind: fields.kind ?? 'sale',
    discount_id: fields.discount_id ?? null,
    metadata: fields.kind === 'comp' ? {} : { channel: 'box-office' },
  });
  /** Runs `use` against a ticketing server of its own, built with `deps`, and stops the server after. */
  const withTicketingServer = async (deps: TicketingDependencies, use: (client: ticketingV1.TicketServiceClient) => Promise<void>) => {
    const server = await startGrpcServer(ticketingGrpcServices(prisma, deps, { tokenSecret, logger }), 0);
    const client = createGrpcClient(ticketingV1.TicketServiceClient, `127.0.0.1:${server.port}`);
    try {
      await use(client);
    } finally {
      client.close();
      await server.shutdown();
    }
  };
  /** Use cases called directly run without an Idempotency-Key. */
  /** Issuance with `inventory` as its catalog, called directly. */
  const issuanceThrough = (inventory: CatalogInventory) =>
    new IssueTicketsUseCase(prisma, inventory, new DriveIssuanceUseCase(prisma, inventory, codes, payments), admissionGate(), logger, noKeys());

  it('issues tickets paid through a payment intent of exactly the order’s total, which then pays for no other issuance', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    const intent = payments.succeeded(5000);
    const paid = await issue(claims, saleRequest(eventId, tierId, { payment: undefined, payment_intent_id: intent }));
    expect(paid.tickets).toHaveLength(2);
    expect(payments.claimedBy(intent)).toBe(paid.issuance_id);
    expect(await prisma.issuance.findUnique({ where: { id: paid.issuance_id }, select: { payment_type: true, payment_reference: true, amount: true } })).toEqual({
      payment_type: 'payment_intent',
      payment_reference: intent,
      amount: 5000n,
    });

    // Used already, or not of the order's total: refused, and the held units go back.
    await expect(issue(claims, saleRequest(eventId, tierId, { payment: undefined, payment_intent_id: intent }))).rejects.toMatchObject({ code: 'payment_intent_used', param: 'payment.payment_intent' });
    await expect(issue(claims, saleRequest(eventId, tierId, { payment: undefined, payment_intent_id: payments.succeeded(4999) }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'payment.payment_intent' });
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
    await expect(issue(claims, saleRequest(eventId, tierId, { payment_intent_id: payments.succeeded(5000) }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'payment' });
  });

  it('issues tickets to a customer found or created by email, and publishes ticket.issued', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    const issued = await issue(claims, saleRequest(eventId, tierId));
    expect(issued.tickets).toHaveLength(2);
    expect(issued.tickets[0]).toMatchObject({ event_id: eventId, tier_id: tierId, status: 'valid', price: 2500, currency: 'EUR', issuance_id: issued.issuance_id, livemode: false });
    const customerId = issued.tickets[0]!.customer_id;
    expect(await callUnary(customers.getCustomer.bind(customers), { id: customerId }, claims, options)).toMatchObject({ email: 'ann@example.com', name: 'Ann Lee' });

    const again = await issue(claims, saleRequest(eventId, tierId, { quantity: 1, payment: { reference: 'order-2', amount: 2500 }, customer: { reference: { $case: 'details', value: { email: 'ann@example.com', name: '' } } } }));
    expect(again.tickets[0]!.customer_id).toBe(customerId);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 3 });
    expect(await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId)).toEqual([
      expect.objectContaining({
        type: 'ticket.issued',
        account_id: claims.tenant!.account_id,
        mode: 'test',
        request_id: 'req_test',
        data: issuedData(eventId, tierId, issued.issuance_id, issued.tickets, { amount: 5000 }),
      }),
      expect.objectContaining({ type: 'ticket.issued', data: issuedData(eventId, tierId, again.issuance_id, again.tickets, { amount: 2500 }) }),
    ]);
  });

  it('gives every ticket its own code, signed with a key the published key set holds', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    const issued = await issue(claims, saleRequest(eventId, tierId));
    const { keys } = await callUnary(tickets.listCodeKeys.bind(tickets), {}, claims, options);
    expect(keys.map((key) => key.kid)).toEqual([codes.publicKeys[0]!.kid]);
    for (const ticket of issued.tickets) {
      expect(ticket.code_version).toBe(1);
      const key = keys.find((candidate) => candidate.kid === jwt.decode(ticket.code, { complete: true })?.header.kid)!;
      expect(jwt.verify(ticket.code, createPublicKey({ key: { ...key }, format: 'jwk' }), { algorithms: ['ES256'] })).toEqual({ sub: ticket.id, evt: eventId, ver: 1 });
    }
    const read = await callUnary(tickets.getTicket.bind(tickets), { id: issued.tickets[0]!.id }, claims, options);
    expect(read.code).toBe(issued.tickets[0]!.code);
  });

  it('refuses a payment that is not the quoted total, and then writes nothing anywhere', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    await expect(issue(claims, saleRequest(eventId, tierId, { payment: { reference: 'order-1', amount: 4999 } }))).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'payment.amount',
      message: expect.stringContaining('5000'),
    });
    expect(await prisma.issuance.count({ where: { account_id: claims.tenant!.account_id } })).toBe(0);
    expect(await prisma.customer.count({ where: { account_id: claims.tenant!.account_id } })).toBe(0);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
  });

  it('sells an order that costs nothing without a payment, and refuses one that costs something without it, holding nothing', async () => {
    const claims = tenant();
    const free = catalogSide.double.addTier(tenantOf(claims), { price: 0, capacity: 10 });
    const issued = await issue(claims, saleRequest(free.eventId, free.tierId, { payment: undefined }));
    expect(issued.tickets.map((ticket) => ticket.price)).toEqual([0, 0]);
    expect(await prisma.issuance.findUniqueOrThrow({ where: { id: issued.issuance_id }, select: { payment_type: true, amount: true } })).toEqual({ payment_type: null, amount: 0n });

    const { eventId, tierId } = await onSale(claims);
    await expect(issue(claims, saleRequest(eventId, tierId, { payment: undefined }))).rejects.toMatchObject({
      code: 'parameter_missing',
      param: 'payment',
      message: expect.stringContaining('5000'),
    });
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    expect(await prisma.issuance.count({ where: { tier_id: tierId } })).toBe(0);
  });

  it('passes catalog’s refusals on, gives back units it held, and records nothing', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims, { capacity: 2 });
    await expect(issue(claims, saleRequest(eventId, tierId, { quantity: 3, payment: { reference: 'o', amount: 7500 } }))).rejects.toMatchObject({ code: 'sold_out', status: 409 });
    await expect(issue(claims, saleRequest(eventId, 'tier_unknown'))).rejects.toMatchObject({ code: 'resource_missing', param: 'tier_id' });
    await expect(
      issue(claims, saleRequest(eventId, tierId, { customer: { reference: { $case: 'customer_id', value: 'cus_unknown' } } })),
    ).rejects.toMatchObject({ code: 'resource_missing', param: 'customer_id' });
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    expect(await prisma.issuance.count({ where: { account_id: claims.tenant!.account_id } })).toBe(0);
  });

  it('enforces a waiting room catalog held the units under before this copy of the setting heard of it (decision 0034)', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    catalogSide.double.enableWaitingRoom(eventId);
    await expect(issue(claims, saleRequest(eventId, tierId))).rejects.toMatchObject({ code: 'admission_token_required', status: 403 });
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    expect(await prisma.issuance.count({ where: { account_id: claims.tenant!.account_id } })).toBe(0);

    const entryId = newId('qen');
    const token = admissionTokens.sign({ entryId, eventId }, new Date(Date.now() + 60_000));
    const issued = await issue(claims, saleRequest(eventId, tierId, { admission_token: token }));
    expect(await prisma.issuance.findUniqueOrThrow({ where: { id: issued.issuance_id }, select: { admission_entry_id: true } })).toEqual({ admission_entry_id: entryId });
    await expect(issue(claims, saleRequest(eventId, tierId, { admission_token: token }))).rejects.toMatchObject({ code: 'admission_token_used', status: 403 });
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
  });

  it('indexes the admissions of only the issuances that used one (the used-token refusals above still hold): a sale without one writes no entry there', async () => {
    const [index] = await prisma.$queryRaw<Array<{ indexdef: string }>>`SELECT indexdef FROM pg_indexes WHERE indexname = 'issuances_admission_entry_id_idx'`;
    expect(index!.indexdef).toMatch(/^CREATE UNIQUE INDEX .* \(admission_entry_id\) WHERE \(admission_entry_id IS NOT NULL\)$/);
  });

  it('holds seats for comps without an admission while the waiting room is enabled, and only a comp takes such a hold (decision 0034)', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims, { capacity: 3 });
    catalogSide.double.addSeats(eventId, tierId, 1, 3);
    catalogSide.double.enableWaitingRoom(eventId);
    await new EventSettingsRepository(prisma).save(tenantOf(claims), { event_id: eventId, status: 'published', waiting_room_enabled: true, admission_rate_per_minute: 10 }, new Date());
    const holdSeats = (seatIds: string[], fields: { purpose?: string; admission_token?: string } = {}) =>
      seatHolds().execute(claims, tenantOf(claims), { event_id: eventId, seat_ids: seatIds, ttl_seconds: 0, ...fields });
    await expect(holdSeats(['S:1:1'])).rejects.toMatchObject({ code: 'admission_token_required', status: 403 });
    const token = admissionTokens.sign({ entryId: newId('qen'), eventId }, new Date(Date.now() + 60_000));
    await expect(holdSeats(['S:1:1'], { purpose: 'comp', admission_token: token })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'admission_token' });
    await expect(holdSeats(['S:1:1'], { purpose: 'gift' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'purpose' });
    expect(await prisma.seatClaim.count({ where: { event_id: eventId } })).toBe(0);

    const forComps = await holdSeats(['S:1:1', 'S:1:2'], { purpose: 'comp' });
    expect(forComps).toMatchObject({ purpose: 'comp', status: 'active' });
    const sale = saleRequest(eventId, tierId, { seat_hold_id: forComps.id, admission_token: token });
    await expect(issue(claims, sale)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'seat_hold_id', message: expect.stringContaining('held for comps') });
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: forComps.id } })).toMatchObject({ status: 'active', taken_by: null });

    const comped = await callUnary(
      tickets.issueComps.bind(tickets),
      { event_id: eventId, tier_id: tierId, quantity: 2, customer: { reference: { $case: 'details', value: { email: 'guest@example.com', name: '' } } }, reason: 'Press', seat_hold_id: forComps.id },
      claims,
      options,
    );
    expect(comped.tickets.map((ticket) => [ticket.seat, ticket.price])).toEqual([
      ['S:1:1', 0],
      ['S:1:2', 0],
    ]);
    // A hold for a sale still needs the buyer's admission, and a comp can take one too.
    const forSale = await holdSeats(['S:1:3'], { admission_token: token });
    expect(forSale.purpose).toBe('sale');
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
  });

  it('binds a seat hold made through the waiting room to its admission: enforced as soon as catalog enables the room, one hold at a time, none once the admission is spent, sold only with it (decision 0034)', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    catalogSide.double.addSeats(eventId, tierId, 1, 4);
    // Catalog has the room enabled; this copy of the setting has not heard of it yet.
    catalogSide.double.enableWaitingRoom(eventId);
    const holdSeats = (seatIds: string[], token = '') => seatHolds().execute(claims, tenantOf(claims), { event_id: eventId, seat_ids: seatIds, ttl_seconds: 0, admission_token: token });
    await expect(holdSeats(['S:1:1'])).rejects.toMatchObject({ code: 'admission_token_required', status: 403 });

    const [ann, bo] = [newId('qen'), newId('qen')];
    // Admissions lapse in a minute, before the hold's default ten minutes: the hold lapses with its admission.
    const admissionsEnd = new Date(Math.floor(Date.now() / 1000) * 1000 + 60_000);
    const tokenOf = (entryId: string) => admissionTokens.sign({ entryId, eventId }, admissionsEnd);
    const annsHold = await holdSeats(['S:1:1', 'S:1:2'], tokenOf(ann));
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: annsHold.id }, select: { admission_entry_id: true, expires_at: true } })).toEqual({ admission_entry_id: ann, expires_at: admissionsEnd });
    await expect(holdSeats(['S:1:3'], tokenOf(ann))).rejects.toMatchObject({ code: 'admission_holds_seats', status: 409, message: expect.stringContaining(annsHold.id) });
    // Nor does Ann's admission buy anything else while it holds seats.
    const standing = catalogSide.double.addTier(tenantOf(claims), { price: 1000, capacity: 5, eventId }).tierId;
    const standingSale = saleRequest(eventId, standing, { quantity: 1, payment: { reference: 'standing', amount: 1000 }, admission_token: tokenOf(ann) });
    await expect(issue(claims, standingSale)).rejects.toMatchObject({ code: 'admission_holds_seats', status: 409, message: expect.stringContaining(annsHold.id) });
    expect(await tierCounters(standing)).toEqual({ held: 0, sold: 0 });

    // Bo's admission does not sell Ann's seats.
    await expect(issue(claims, saleRequest(eventId, tierId, { seat_hold_id: annsHold.id, admission_token: tokenOf(bo) }))).rejects.toMatchObject({
      code: 'admission_token_invalid',
      message: expect.stringContaining('another admission'),
    });
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: annsHold.id } })).toMatchObject({ status: 'active', taken_by: null });
    expect((await issue(claims, saleRequest(eventId, tierId, { seat_hold_id: annsHold.id, admission_token: tokenOf(ann) }))).tickets).toHaveLength(2);

    // Spent, Ann's admission holds nothing more; Bo's holds one hold at a time, and another once that one is released.
    await expect(holdSeats(['S:1:3'], tokenOf(ann))).rejects.toMatchObject({ code: 'admission_token_used', status: 403 });
    const bosFirst = await holdSeats(['S:1:3'], tokenOf(bo));
    await new ReleaseSeatHoldUseCase(prisma).execute(tenantOf(claims), { event_id: eventId, hold_id: bosFirst.id });
    expect((await holdSeats(['S:1:4'], tokenOf(bo))).status).toBe('active');
    expect(await prisma.seatClaim.findMany({ where: { event_id: eventId }, select: { seat_id: true }, orderBy: { seat_id: 'asc' } })).toEqual(['S:1:1', 'S:1:2', 'S:1:4'].map((seat_id) => ({ seat_id })));
  });

  it('lets only one of a seat hold and a sale of another tier racing with one admission pass (decision 0034)', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    catalogSide.double.addSeats(eventId, tierId, 1, 2);
    catalogSide.double.enableWaitingRoom(eventId);
    const standing = catalogSide.double.addTier(tenantOf(claims), { price: 1000, capacity: 5, eventId }).tierId;
    const token = admissionTokens.sign({ entryId: newId('qen'), eventId }, new Date(Date.now() + 60_000));
    let sale!: Promise<unknown>;
    let seatHold!: Promise<unknown>;
    await prisma.$transaction(
      async (tx) => {
        // The sale has checked its admission holds no seats and waits to record itself, when the hold begins.
        await tx.$executeRaw`LOCK TABLE issuances IN SHARE MODE`;
        sale = issue(claims, saleRequest(eventId, standing, { quantity: 1, payment: { reference: 'standing', amount: 1000 }, admission_token: token })).then(
          (issued) => issued.tickets.length,
          (error: ApiError) => error.code,
        );
        await waitForLockWaiters(prisma);
        seatHold = seatHolds()
          .execute(claims, tenantOf(claims), { event_id: eventId, seat_ids: ['S:1:1'], ttl_seconds: 0, admission_token: token })
          .then(
            (hold) => hold.status,
            (error: ApiError) => error.code,
          );
        await Promise.race([seatHold, waitForLockWaiters(prisma, 2)]);
      },
      { timeout: 10_000 },
    );
    expect([await sale, await seatHold]).toEqual([1, 'admission_token_used']);
    expect(await prisma.seatClaim.count({ where: { event_id: eventId } })).toBe(0);
  });

  /** The units' hold in catalog lapses between the reservation and the commit, as after a long stall. */
  class LapsingHold extends CatalogInventory {
    override async commit(callClaims: InternalClaims, issuanceId: string): Promise<void> {
      await super.release(callClaims, issuanceId);
      await super.commit(callClaims, issuanceId);
    }
  }

  it('refuses an issuance whose hold expired before it could commit, and answers a retry with the same refusal', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    const lapsing = new LapsingHold(catalogClients, options);
    const idempotent: CallerOptions = { ...options, idempotency: { key: 'lapsing', fingerprint: 'f', onReplayed: () => undefined } };
    await withTicketingServer(dependencies(lapsing), async (client) => {
      for (let attempt = 0; attempt < 2; attempt += 1) {
        await expect(callUnary(client.issueTickets.bind(client), saleRequest(eventId, tierId), claims, idempotent)).rejects.toMatchObject({ code: 'issuance_expired', status: 409 });
      }
    });
    expect(await prisma.issuance.findMany({ where: { tier_id: tierId }, select: { status: true } })).toEqual([{ status: 'refused' }]);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    expect(await prisma.ticket.count({ where: { tier_id: tierId } })).toBe(0);
  });

  it('lets go of a refused seated issuance’s seat hold: the seats stay the buyer’s, and the same hold sells them next time', async () => {
    const claims = tenant();
    const { eventId, tierId, hold, holdSeats } = await seatedOnSale(claims);
    const lapsing = new LapsingHold(catalogClients, options);
    await expect(issuanceThrough(lapsing).sell(claims, tenantOf(claims), saleRequest(eventId, tierId, { seat_hold_id: hold.id }))).rejects.toMatchObject({ code: 'issuance_expired' });

    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: hold.id } })).toMatchObject({ status: 'active', taken_by: null, issuance_id: null });
    expect(await prisma.seatClaim.count({ where: { event_id: eventId } })).toBe(2);
    expect(ofType(await publishedOn(prisma, TICKETING_SEAT_TOPIC, eventId), 'seat.released')).toEqual([]);
    await expect(holdSeats(['S:1:1'])).rejects.toMatchObject({ code: 'seats_unavailable' });

    const issued = await issue(claims, saleRequest(eventId, tierId, { seat_hold_id: hold.id }));
    expect(issued.tickets.map((ticket) => ticket.seat)).toEqual(['S:1:1', 'S:1:2']);
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: hold.id } })).toMatchObject({ status: 'sold', issuance_id: issued.issuance_id });
  });

  /** Catalog answers no reserve in time, then carries each out a moment later, as a stalled catalog does once it runs again. */
  class LateReserve extends CatalogInventory {
    readonly carriedOut: Array<Promise<unknown>> = [];
    override async reserve(callClaims: InternalClaims, issuance: Parameters<CatalogInventory['reserve']>[1]): ReturnType<CatalogInventory['reserve']> {
      this.carriedOut.push(new Promise((resolve) => setTimeout(resolve, 300)).then(() => super.reserve(callClaims, issuance).catch((error: unknown) => error)));
      throw new ApiError('service_unavailable', 'catalog did not answer in time');
    }
  }

  it('withdraws the units of a reserve whose outcome it does not know, so that catalog carrying it out late holds nothing (decision 0029)', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims, { capacity: 2 });
    const late = new LateReserve(catalogClients, options);
    await expect(issuanceThrough(late).sell(claims, tenantOf(claims), saleRequest(eventId, tierId))).rejects.toMatchObject({ code: 'service_unavailable' });
    await Promise.all(late.carriedOut);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    // The buyer's next try finds both units, not a tier its own first try keeps sold out.
    expect((await issue(claims, saleRequest(eventId, tierId))).tickets).toHaveLength(2);
  });

  it('gives a refused issuance’s waiting-room admission back: the same token lets the buyer’s next issuance through, once', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    catalogSide.double.enableWaitingRoom(eventId);
    const token = admissionTokens.sign({ entryId: newId('qen'), eventId }, new Date(Date.now() + 60_000));
    const lapsing = new LapsingHold(catalogClients, options);
    await expect(issuanceThrough(lapsing).sell(claims, tenantOf(claims), saleRequest(eventId, tierId, { admission_token: token }))).rejects.toMatchObject({ code: 'issuance_expired' });
    expect(await prisma.issuance.findMany({ where: { tier_id: tierId }, select: { status: true, admission_entry_id: true } })).toEqual([{ status: 'refused', admission_entry_id: null }]);

    expect((await issue(claims, saleRequest(eventId, tierId, { admission_token: token }))).tickets).toHaveLength(2);
    await expect(issue(claims, saleRequest(eventId, tierId, { admission_token: token }))).rejects.toMatchObject({ code: 'admission_token_used' });
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
  });

  it('of concurrent issuances naming one seat hold, only one holds units: the others are refused having held none, so another hold’s buyer still buys', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims, { capacity: 3 });
    catalogSide.double.addSeats(eventId, tierId, 1, 3);
    const holdSeats = (seatIds: string[]) => seatHolds().execute(claims, tenantOf(claims), { event_id: eventId, seat_ids: seatIds, ttl_seconds: 0 });
    const pair = await holdSeats(['S:1:1', 'S:1:2']);
    const single = await holdSeats(['S:1:3']);
    const reservesBefore = catalogSide.double.reserveCalls;

    // A buyer's triple submit of one hold, and another buyer's hold of the last seat, all at once.
    const outcomes = await Promise.allSettled([
      ...[1, 2, 3].map(() => issue(claims, saleRequest(eventId, tierId, { seat_hold_id: pair.id }))),
      issue(claims, saleRequest(eventId, tierId, { seat_hold_id: single.id, quantity: 1, payment: { reference: 'o', amount: 2500 } })),
    ]);
    const answers = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'sold' : (outcome.reason as ApiError).code));
    expect({ pair: answers.slice(0, 3).sort(), single: answers[3] }).toEqual({ pair: ['seat_hold_unavailable', 'seat_hold_unavailable', 'sold'], single: 'sold' });
    expect(catalogSide.double.reserveCalls - reservesBefore).toBe(2);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 3 });
  });

  it('lets go of a seat hold whose issuance was refused before it was recorded: the buyer can use it again', async () => {
    const claims = tenant();
    const { eventId, tierId, hold } = await seatedOnSale(claims);
    const stillFree = async () => expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: hold.id } })).toMatchObject({ status: 'active', taken_by: null, issuance_id: null });
    // Refused by catalog before any unit was held, then after the units were held (the payment is short).
    const { eventId: fullEventId, tierId: fullTierId } = await onSale(claims, { capacity: 1 });
    catalogSide.double.addSeats(fullEventId, fullTierId, 1, 2);
    const tooMany = await seatHolds().execute(claims, tenantOf(claims), { event_id: fullEventId, seat_ids: ['S:1:1', 'S:1:2'], ttl_seconds: 0 });
    await expect(issue(claims, saleRequest(fullEventId, fullTierId, { seat_hold_id: tooMany.id }))).rejects.toMatchObject({ code: 'sold_out' });
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: tooMany.id } })).toMatchObject({ status: 'active', taken_by: null, issuance_id: null });
    await expect(issue(claims, saleRequest(eventId, tierId, { seat_hold_id: hold.id, payment: { reference: 'o', amount: 1 } }))).rejects.toMatchObject({ code: 'parameter_invalid' });
    await stillFree();
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });

    expect((await issue(claims, saleRequest(eventId, tierId, { seat_hold_id: hold.id }))).tickets.map((ticket) => ticket.seat)).toEqual(['S:1:1', 'S:1:2']);
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: hold.id } })).toMatchObject({ status: 'sold', taken_by: expect.any(String), issuance_id: expect.any(String) });
  });

  it('frees the seat of a refunded or revoked seated ticket: seat.released says why, and the seat can be held and sold again', async () => {
    const claims = tenant();
    const { eventId, tierId, hold, holdSeats } = await seatedOnSale(claims);
    const sold = await issue(claims, saleRequest(eventId, tierId, { seat_hold_id: hold.id }));
    const [first, second] = sold.tickets;
    await callUnary(tickets.refundTicket.bind(tickets), { id: first!.id, reason: '' }, claims, options);
    await callUnary(tickets.revokeTicket.bind(tickets), { id: second!.id, reason: 'Resold by a tout' }, claims, options);

    expect(await prisma.seatClaim.count({ where: { event_id: eventId } })).toBe(0);
    const freed = ofType(await publishedOn(prisma, TICKETING_SEAT_TOPIC, eventId), 'seat.released');
    expect(freed.map((message) => message.data)).toEqual([
      { event_id: eventId, seat_ids: ['S:1:1'], reason: 'refunded' },
      { event_id: eventId, seat_ids: ['S:1:2'], reason: 'revoked' },
    ]);
    const again = await holdSeats();
    expect((await issue(claims, saleRequest(eventId, tierId, { seat_hold_id: again.id }))).tickets).toHaveLength(2);
  });

  it('keeps a refunded seated ticket’s seat until catalog has its unit back: the seat is never for sale while its tier counts it sold', async () => {
    const claims = tenant();
    const { eventId, tierId, hold, holdSeats } = await seatedOnSale(claims);
    const [first] = (await issue(claims, saleRequest(eventId, tierId, { seat_hold_id: hold.id }))).tickets;
    /** Catalog is down: the unit cannot be given back yet. */
    class CatalogDown extends CatalogInventory {
      override async returnUnit(): Promise<void> {
        throw new ApiError('service_unavailable', 'catalog is down');
      }
    }
    const down = new CatalogDown(catalogClients, options);
    const refund = new RetireTicketUseCase(prisma, new ReturnUnitsUseCase(prisma, down, logger), down, logger);
    expect(await refund.execute(claims, tenantOf(claims), 'refund', { id: first!.id, reason: '' })).toMatchObject({ status: 'refunded' });

    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
    await expect(holdSeats(['S:1:1'])).rejects.toMatchObject({ code: 'seats_unavailable' });
    expect(ofType(await publishedOn(prisma, TICKETING_SEAT_TOPIC, eventId), 'seat.released')).toEqual([]);

    const units = new ReturnUnitsUseCase(prisma, catalog, logger);
    expect(await units.redrive(0)).toBeGreaterThanOrEqual(1);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 1 });
    await units.redrive(0);
    const freed = ofType(await publishedOn(prisma, TICKETING_SEAT_TOPIC, eventId), 'seat.released');
    expect(freed.map((message) => message.data)).toEqual([{ event_id: eventId, seat_ids: ['S:1:1'], reason: 'refunded' }]);
    const again = await holdSeats(['S:1:1']);
    expect((await issue(claims, saleRequest(eventId, tierId, { quantity: 1, seat_hold_id: again.id, payment: { reference: 'order-2', amount: 2500 } }))).tickets.map((ticket) => ticket.seat)).toEqual(['S:1:1']);
  });

  it('sells a seat hold’s seats with its issuance: each ticket takes its seat, and seat.sold names the seats after seat.held', async () => {
    const claims = tenant();
    const { eventId, tierId, hold } = await seatedOnSale(claims);
    const sold = await issue(claims, saleRequest(eventId, tierId, { seat_hold_id: hold.id }));
    expect(sold.tickets.map((ticket) => ticket.seat)).toEqual(['S:1:1', 'S:1:2']);
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: hold.id } })).toMatchObject({ status: 'sold' });

    expect((await publishedOn(prisma, TICKETING_SEAT_TOPIC, eventId)).map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'seat.held', data: { event_id: eventId, seat_ids: ['S:1:1', 'S:1:2'], hold_id: hold.id, expires_at: hold.expires_at.toISOString() } },
      { type: 'seat.sold', data: { event_id: eventId, seat_ids: ['S:1:1', 'S:1:2'] } },
    ]);
    expect((await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId)).map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'ticket.issued', data: issuedData(eventId, tierId, sold.issuance_id, sold.tickets, { amount: 5000 }) },
    ]);
  });

  it('under one Idempotency-Key, a retry answers the first issuance and sells nothing more', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    let replayed = false;
    const idempotent: CallerOptions = { ...options, idempotency: { key: 'issue-1', fingerprint: 'f1', onReplayed: () => (replayed = true) } };
    const first = await issue(claims, saleRequest(eventId, tierId), idempotent);
    const retry = await issue(claims, saleRequest(eventId, tierId), idempotent);
    expect(retry).toEqual(first);
    expect(replayed).toBe(true);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
  });

  it('keeps each issuance in its own call, its Idempotency-Key and request id included, while it waits its turn', async () => {
    await withTicketingServer({ ...dependencies(catalog), issuanceConcurrency: 1 }, async (queued) => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims);
      const calls = [1, 2, 3, 4].map((index) => {
        const request = saleRequest(eventId, tierId, { quantity: 1, payment: { reference: `order-${index}`, amount: 2500 } });
        const keyed: CallerOptions = { ...options, idempotency: { key: `queued-${index}`, fingerprint: `f${index}`, onReplayed: () => undefined } };
        return callUnary(queued.issueTickets.bind(queued), request, { ...claims, request_id: `req_queued_${index}` }, keyed);
      });
      const issued = await Promise.all(calls);
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 4 });
      const announced = ofType(await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId), 'ticket.issued');
      expect(announced).toHaveLength(4);
      const requestIdOf = new Map(announced.map((message) => [message.data.issuance_id, message.request_id]));
      expect(issued.map((issuance) => requestIdOf.get(issuance.issuance_id))).toEqual(['req_queued_1', 'req_queued_2', 'req_queued_3', 'req_queued_4']);
    });
  });

  it('takes sales made at the same moment as one IssueTicketsTogether call, each with its own request id, Idempotency-Key and outcome (decision 0058)', async () => {
    await withTicketingServer(dependencies(catalog), async (client) => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims);
      const together = jest.spyOn(client, 'issueTicketsTogether');
      const sale = (order: string, amount = 2500) => saleRequest(eventId, tierId, { quantity: 1, payment: { reference: order, amount } });
      const replays: string[] = [];
      const keyed = (key: string): CallerOptions => ({ ...options, idempotency: { key, fingerprint: key, onReplayed: () => replays.push(key) } });
      const callsOf = (requestId: string, callOptions: CallerOptions) => serviceCalls(client, { ...claims, request_id: requestId }, callOptions);
      const earlier = await callsOf('req_earlier', keyed('sale-1')).issueTickets(sale('order-1'));
      together.mockClear();

      const [sold, refused, replayed] = await Promise.allSettled([
        callsOf('req_sold', keyed('sale-2')).issueTickets(sale('order-2')),
        callsOf('req_refused', options).issueTickets(sale('order-3', 2499)),
        callsOf('req_replayed', keyed('sale-1')).issueTickets(sale('order-1')),
      ]);

      expect(together).toHaveBeenCalledTimes(1);
      expect(sold).toMatchObject({ status: 'fulfilled', value: { tickets: [{ price: 2500 }] } });
      expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'parameter_invalid', param: 'payment.amount' } });
      expect(replayed).toEqual({ status: 'fulfilled', value: earlier });
      expect(replays).toEqual(['sale-1']);
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
      const announced = ofType(await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId), 'ticket.issued');
      const requestIdOf = new Map(announced.map((message) => [message.data.issuance_id, message.request_id]));
      expect([earlier, (sold as PromiseFulfilledResult<ticketingV1.IssuedTickets>).value].map((issuance) => requestIdOf.get(issuance.issuance_id))).toEqual(['req_earlier', 'req_sold']);
    });
  });

  it('after a hold whose reply was lost, a retry under the same Idempotency-Key gives the lost hold back first and sells once, though that hold took the whole capacity', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims, { capacity: 2 });
    /** Catalog holds the units, but the reply is lost, as when the connection drops. */
    class LostHoldReply extends CatalogInventory {
      override async reserve(...args: Parameters<CatalogInventory['reserve']>): ReturnType<CatalogInventory['reserve']> {
        await super.reserve(...args);
        throw new ApiError('service_unavailable', 'the reply was lost');
      }
    }
    const flaky = new LostHoldReply(catalogClients, options);
    const idempotent: CallerOptions = { ...options, idempotency: { key: 'lost-hold', fingerprint: 'f', onReplayed: () => undefined } };
    await withTicketingServer(dependencies(flaky), async (flakyClient) => {
      await expect(callUnary(flakyClient.issueTickets.bind(flakyClient), saleRequest(eventId, tierId), claims, idempotent)).rejects.toMatchObject({ code: 'service_unavailable' });
    });
    expect(await prisma.issuance.count({ where: { tier_id: tierId } })).toBe(0);

    const retried = await issue(claims, saleRequest(eventId, tierId), idempotent);
    expect(retried.tickets).toHaveLength(2);
    expect(await issue(claims, saleRequest(eventId, tierId), idempotent)).toEqual(retried);
    expect(await prisma.ticket.count({ where: { tier_id: tierId } })).toBe(2);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
  });

  describe('a retry under the same Idempotency-Key while the first call is still on its way (decision 0041)', () => {
    /** A catalog whose holds, once taken, wait for `letHoldsFinish()`: the first call is still on its way. */
    class SlowHolds extends CatalogInventory {
      private resume!: () => void;
      private readonly resumed = new Promise<void>((resolve) => (this.resume = resolve));
      held!: Promise<void>;
      private heldNow!: () => void;
      constructor(...args: ConstructorParameters<typeof CatalogInventory>) {
        super(...args);
        this.held = new Promise<void>((resolve) => (this.heldNow = resolve));
      }

      override async reserve(...args: Parameters<CatalogInventory['reserve']>): ReturnType<CatalogInventory['reserve']> {
        const units = await super.reserve(...args);
        this.heldNow();
        await this.resumed;
        return units;
      }

      letHoldsFinish(): void {
        this.resume();
      }
    }
    const keyed = (key: string): CallerOptions => ({ ...options, idempotency: { key, fingerprint: `fingerprint-${key}`, onReplayed: () => undefined } });
    /** Ages the claim of `key` past its lease, as if its call had died; `actsOn` replaces what the claim records it acts on. */
    const lapseClaim = (key: string, actsOn?: string) =>
      prisma.$executeRaw`UPDATE idempotency_keys SET acts_on = coalesce(${actsOn ?? null}::text, acts_on), created_at = now() - make_interval(secs => ${KEY_CLAIM_LEASE_SECONDS + 1})
        WHERE fingerprint = ${`fingerprint-${key}`}`;
    /**
     * Sends a sale of 2 under `key` to a ticketing server whose holds wait once taken, and runs
     * `meanwhile` once its units are held, with the sale on its way and what lets it finish.
     */
    const whileFirstCallIsOnItsWay = async (
      key: string,
      capacity: number,
      meanwhile: (sale: { claims: InternalClaims; eventId: string; tierId: string; first: Promise<ticketingV1.IssuedTickets>; letFinish: () => void }) => Promise<void>,
    ) => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims, { capacity });
      const slow = new SlowHolds(catalogClients, options);
      await withTicketingServer(dependencies(slow), async (slowClient) => {
        const first = callUnary(slowClient.issueTickets.bind(slowClient), saleRequest(eventId, tierId), claims, keyed(key));
        await slow.held;
        await meanwhile({ claims, eventId, tierId, first, letFinish: () => slow.letHoldsFinish() });
      });
      return tierId;
    };

    it('tells the retry the key is in use, not sold out, and the first call’s tickets answer the next retry', async () => {
      const tierId = await whileFirstCallIsOnItsWay('on-its-way', 2, async ({ claims, eventId, tierId, first, letFinish }) => {
        // The first call holds the whole capacity: a retry acting on its own would be refused as sold out.
        await expect(issue(claims, saleRequest(eventId, tierId), keyed('on-its-way'))).rejects.toMatchObject({ code: 'idempotency_key_in_use', status: 409 });
        letFinish();
        const sold = await first;
        expect(await issue(claims, saleRequest(eventId, tierId), keyed('on-its-way'))).toEqual(sold);
      });
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
      expect(await prisma.ticket.count({ where: { tier_id: tierId } })).toBe(2);
    });

    it('lets a retry take over a claim that outlived its lease; the first call, finishing later, writes nothing and gives its units back', async () => {
      const tierId = await whileFirstCallIsOnItsWay('lapsed', 4, async ({ claims, eventId, tierId, first, letFinish }) => {
        await lapseClaim('lapsed');
        const retried = await issue(claims, saleRequest(eventId, tierId), keyed('lapsed'));
        letFinish();
        await expect(first).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
        expect(await issue(claims, saleRequest(eventId, tierId), keyed('lapsed'))).toEqual(retried);
      });
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
      expect(await prisma.issuance.count({ where: { tier_id: tierId } })).toBe(1);
    });

    it('lets a retry that takes over a lapsed claim give back the first call’s hold first, so the tier that hold sold out sells to it', async () => {
      const tierId = await whileFirstCallIsOnItsWay('stranded', 2, async ({ claims, eventId, tierId, first, letFinish }) => {
        // The first call holds the whole capacity and is as good as dead: its claim lapses unrecorded.
        await lapseClaim('stranded');
        const retried = await issue(claims, saleRequest(eventId, tierId), keyed('stranded'));
        expect(retried.tickets).toHaveLength(2);
        letFinish();
        await expect(first).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
        expect(await issue(claims, saleRequest(eventId, tierId), keyed('stranded'))).toEqual(retried);
      });
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
      expect(await prisma.issuance.count({ where: { tier_id: tierId } })).toBe(1);
    });

    it('takes over a lapsed claim whose issuance catalog never heard of: there is nothing to give back', async () => {
      const tierId = await whileFirstCallIsOnItsWay('died-early', 4, async ({ claims, eventId, tierId, first, letFinish }) => {
        // As a call leaves its claim when it dies before its hold reaches catalog.
        await lapseClaim('died-early', 'iss_never_held');
        const retried = await issue(claims, saleRequest(eventId, tierId), keyed('died-early'));
        expect(retried.tickets).toHaveLength(2);
        letFinish();
        await expect(first).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
      });
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
    });

    /**
     * Sends an upgrade to a tier of one unit under `key`, to a ticketing server whose holds wait
     * once taken, and runs `meanwhile` once that unit is held, with the upgrade on its way and
     * what lets it finish.
     */
    const whileFirstUpgradeIsOnItsWay = async (
      key: string,
      meanwhile: (upgrade: { claims: InternalClaims; request: ticketingV1.UpgradeTicketRequest; first: Promise<ticketingV1.Ticket>; letFinish: () => void }) => Promise<void>,
    ) => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims);
      const ticket = (await issue(claims, saleRequest(eventId, tierId, { quantity: 1, payment: { reference: 'o', amount: 2500 } }))).tickets[0]!;
      // One unit: a retry acting on its own while the first upgrade holds it would be refused as sold out.
      const vip = catalogSide.double.addTier(tenantOf(claims), { price: 9000, capacity: 1, rank: 2, eventId }).tierId;
      const request = { id: ticket.id, tier_id: vip, payment: { reference: 'up', amount: 6500 }, payment_intent_id: '' };
      const slow = new SlowHolds(catalogClients, options);
      await withTicketingServer(dependencies(slow), async (slowClient) => {
        const first = callUnary(slowClient.upgradeTicket.bind(slowClient), request, claims, keyed(key));
        await slow.held;
        await meanwhile({ claims, request, first, letFinish: () => slow.letHoldsFinish() });
      });
      return { vip, tierId };
    };

    it('holds an upgrade’s retry off the same way: in use while the first upgrade is on its way, then answered with its ticket', async () => {
      const { vip } = await whileFirstUpgradeIsOnItsWay('upgrade', async ({ claims, request, first, letFinish }) => {
        await expect(callUnary(tickets.upgradeTicket.bind(tickets), request, claims, keyed('upgrade'))).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
        letFinish();
        const moved = await first;
        expect(moved.tier_id).toBe(request.tier_id);
        expect(await callUnary(tickets.upgradeTicket.bind(tickets), request, claims, keyed('upgrade'))).toEqual(moved);
      });
      expect(await tierCounters(vip)).toEqual({ held: 0, sold: 1 });
    });

    it('lets an upgrade’s retry that takes over a lapsed claim give back the first call’s unit and ticket first, and upgrade', async () => {
      const { vip, tierId } = await whileFirstUpgradeIsOnItsWay('upgrade-stranded', async ({ claims, request, first, letFinish }) => {
        // The first upgrade holds the one unit and is as good as dead: its claim lapses unrecorded.
        await lapseClaim('upgrade-stranded');
        const moved = await callUnary(tickets.upgradeTicket.bind(tickets), request, claims, keyed('upgrade-stranded'));
        expect(moved.tier_id).toBe(request.tier_id);
        letFinish();
        await expect(first).rejects.toBeDefined();
      });
      expect(await tierCounters(vip)).toEqual({ held: 0, sold: 1 });
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    });

    it('records a keyed seated sale, whose seat hold binds in the same transaction, once: a retry replays it', async () => {
      const claims = tenant();
      const { eventId, tierId, hold } = await seatedOnSale(claims);
      const sold = await issue(claims, saleRequest(eventId, tierId, { seat_hold_id: hold.id }), keyed('seated'));
      expect(await issue(claims, saleRequest(eventId, tierId, { seat_hold_id: hold.id }), keyed('seated'))).toEqual(sold);
      expect(await prisma.ticket.count({ where: { tier_id: tierId } })).toBe(2);
    });

    it('lets a call whose deadline passed before it could claim its key do nothing: the retry the client sent then sells, once', async () => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims, { capacity: 2 });
      await prisma.$transaction(
        async (tx) => {
          // Holds the call's claim back past its deadline, as a queue for pooled connections does under a rush.
          await tx.$executeRaw`LOCK TABLE idempotency_keys IN EXCLUSIVE MODE`;
          const late = callUnary(tickets.issueTickets.bind(tickets), saleRequest(eventId, tierId), claims, { ...keyed('late'), deadlineMs: 300 });
          await expect(late).rejects.toMatchObject({ code: 'service_unavailable' });
        },
        { timeout: 10_000 },
      );
      // The late call's claim runs first once the lock is gone; had it claimed, this retry would be told the key is in use.
      expect((await issue(claims, saleRequest(eventId, tierId), keyed('late'))).tickets).toHaveLength(2);
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
      expect(await prisma.issuance.count({ where: { tier_id: tierId } })).toBe(1);
    });

    it('gives up the key of a refused call, so a retry is refused the same way, never told the key is in use, and sells once units are back', async () => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims, { capacity: 2 });
      const blocker = await issue(claims, saleRequest(eventId, tierId));
      await expect(issue(claims, saleRequest(eventId, tierId), keyed('refused-first'))).rejects.toMatchObject({ code: 'sold_out' });
      await expect(issue(claims, saleRequest(eventId, tierId), keyed('refused-first'))).rejects.toMatchObject({ code: 'sold_out' });
      for (const ticket of blocker.tickets) await callUnary(tickets.refundTicket.bind(tickets), { id: ticket.id, reason: '' }, claims, options);
      expect((await issue(claims, saleRequest(eventId, tierId), keyed('refused-first'))).tickets).toHaveLength(2);
    });
  });

  it('never issues more than the capacity, whatever the concurrency', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims, { capacity: 20 });
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        issue(claims, saleRequest(eventId, tierId, { quantity: 1, payment: { reference: `order-${index}`, amount: 2500 } })).then(
          (issued) => issued.tickets.length,
          (error: ApiError) => error.code,
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === 1)).toHaveLength(20);
    expect(outcomes.filter((outcome) => outcome === 'sold_out')).toHaveLength(40);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 20 });
    expect(await prisma.ticket.count({ where: { tier_id: tierId } })).toBe(20);
  });

  it('holds and commits the units of issuances made at the same moment in one catalog call each, not one per issuance (decisions 0054, 0058)', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims, { capacity: 30 });
    const [reservesBefore, batchesBefore, commitsBefore] = [catalogSide.double.reserveCalls, catalogSide.double.reserveTogetherCalls, catalogSide.double.commitTogetherCalls];
    const sales = await Promise.all(Array.from({ length: 30 }, (_, index) => issue(claims, saleRequest(eventId, tierId, { quantity: 1, payment: { reference: `order-${index}`, amount: 2500 } }))));
    expect(sales.flatMap((sale) => sale.tickets)).toHaveLength(30);
    expect(catalogSide.double.reserveCalls - reservesBefore).toBe(30);
    expect(catalogSide.double.reserveTogetherCalls - batchesBefore).toBeLessThan(10);
    expect(catalogSide.double.commitTogetherCalls - commitsBefore).toBeLessThan(10);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 30 });
  });

  it('issues the issuances that share one statement each with its own tickets, prices and message; a second driver of one of them gets nothing', async () => {
    const claims = tenant();
    const owner = tenantOf(claims);
    const { eventId, tierId } = await onSale(claims);
    const record = (quantity: number, amount: number, email: string) =>
      new IssuanceRepository(prisma).createPending(
        owner,
        { id: newId('iss'), event_id: eventId, tier_id: tierId, kind: 'sale', quantity, payment: { type: 'external', reference: email, amount }, amount, currency: 'EUR',
          comp_reason: null, seat_hold_id: null, admission_entry_id: null, discount_id: null, metadata: {} },
        { details: { email, name: '' } },
        undefined,
        null,
      );
    const [first, second] = [await record(2, 5001, 'ann@example.com'), await record(3, 7500, 'bo@example.com')];
    const ready = (issuance: TicketingIssuance): UnseatedIssue => {
      const units = Array.from({ length: issuance.quantity }, () => ({ id: newId('tkt'), code: `code-of-${issuance.id}` }));
      const data = { event_id: eventId, tier_id: tierId, issuance_id: issuance.id, customer_id: issuance.customer_id, ticket_ids: units.map((unit) => unit.id), amount: issuance.amount, currency: 'EUR', kind: 'sale' as const, discount_id: null, metadata: {} };
      return { issuance, units, message: outboxRow({ topic: TICKETING_TICKET_TOPIC, type: 'ticket.issued', aggregateId: eventId, tenant: owner, data }) };
    };
    const batch = [ready(first), ready(second), ready(first)];

    const issued = await new TicketRepository(prisma).issueUnseated(owner, batch);

    expect(issued[2]).toBeNull();
    for (const [index, issuance] of [first, second].entries()) {
      const tickets = issued[index]!;
      expect(tickets.map((ticket) => ticket.id)).toEqual(batch[index]!.units.map((unit) => unit.id));
      expect(tickets.every((ticket) => ticket.issuance_id === issuance.id && ticket.customer_id === issuance.customer_id && ticket.code === `code-of-${issuance.id}`)).toBe(true);
      expect(tickets.reduce((sum, ticket) => sum + ticket.price, 0)).toBe(issuance.amount);
    }
    expect(await prisma.ticket.count({ where: { tier_id: tierId } })).toBe(5);
    expect(await prisma.issuance.findMany({ where: { tier_id: tierId }, select: { status: true } })).toEqual([{ status: 'issued' }, { status: 'issued' }]);
    const announced = await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId);
    expect(announced.map((message) => message.id).sort()).toEqual([batch[0]!.message.id, batch[1]!.message.id].sort());
    expect(await new TicketRepository(prisma).issueUnseated(owner, [ready(second)])).toEqual([null]);
  });

  it('records issuances that arrive together in one statement, each with its buyer; those it cannot record are left to the single statement', async () => {
    const claims = tenant();
    const owner = tenantOf(claims);
    const { eventId, tierId } = await onSale(claims);
    const known = await callUnary(customers.createCustomer.bind(customers), { email: 'known@example.com', name: 'Known' }, claims, options);
    const item = (buyer: CustomerChoice, fields: Partial<NewIssuance> = {}, newCustomerId?: string) => ({
      issuance: {
        id: newId('iss'), event_id: eventId, tier_id: tierId, kind: 'sale' as const, quantity: 1, payment: { type: 'external' as const, reference: 'r', amount: 2500 }, amount: 2500,
        currency: 'EUR', comp_reason: null, seat_hold_id: null, admission_entry_id: null, discount_id: null, metadata: { n: '1' }, ...fields,
      },
      buyer,
      newCustomerId,
      keySeal: null,
    });
    const repository = new IssuanceRepository(prisma);
    const [used] = await repository.createPendingTogether(owner, [item({ customer_id: known.id }, { admission_entry_id: 'qe_used' })]);
    const newCustomerId = newId('cus');
    const batch = [
      item({ details: { email: 'new@example.com', name: 'New' } }, {}, newCustomerId),
      item({ details: { email: 'new@example.com', name: 'Same email' } }),
      item({ details: { email: 'known@example.com', name: 'Known again' } }),
      item({ customer_id: known.id }),
      item({ customer_id: 'cus_unknown' }),
      item({ customer_id: known.id }, { admission_entry_id: 'qe_used' }),
    ];

    const recorded = await repository.createPendingTogether(owner, batch);

    expect(used).toMatchObject({ customer_id: known.id, status: 'pending' });
    expect(recorded.map((issuance) => issuance?.customer_id ?? null)).toEqual([newCustomerId, newCustomerId, known.id, known.id, null, null]);
    expect(recorded.slice(0, 4).map((issuance) => issuance!.id)).toEqual(batch.slice(0, 4).map((entry) => entry.issuance.id));
    expect(recorded[0]).toMatchObject({ kind: 'sale', amount: 2500, payment: { type: 'external', reference: 'r', amount: 2500 }, metadata: { n: '1' }, status: 'pending' });
    expect(await prisma.customer.findMany({ where: { account_id: owner.accountId, email: 'new@example.com' }, select: { id: true, name: true } })).toEqual([{ id: newCustomerId, name: 'New' }]);
    // The single statement then refuses what the shared one left.
    await expect(repository.createPending(owner, batch[4]!.issuance, batch[4]!.buyer, undefined, null)).rejects.toMatchObject({ code: 'resource_missing' });
    await expect(repository.createPending(owner, batch[5]!.issuance, batch[5]!.buyer, undefined, null)).rejects.toMatchObject({ code: 'admission_token_used' });

    // Under keys: an item whose claim is still its call's is recorded and seals it; one whose claim was lost is left, unwritten.
    const claimed = { operation: 'issueTickets', keyHash: newId('key'), fingerprint: 'f-claimed', sealed: Buffer.from('result') };
    const lost = { operation: 'issueTickets', keyHash: newId('key'), fingerprint: 'f-lost', sealed: Buffer.from('result') };
    await prisma.idempotencyKey.createMany({
      data: [
        { account_id: owner.accountId, mode: owner.mode, operation: claimed.operation, key_hash: claimed.keyHash, fingerprint: claimed.fingerprint },
        { account_id: owner.accountId, mode: owner.mode, operation: lost.operation, key_hash: lost.keyHash, fingerprint: 'a retry took it over' },
      ],
    });
    const sealOf = (key: typeof claimed) => ({ claim: Prisma.empty, seal: Prisma.empty, key, confirm: jest.fn() });
    const [claimedSeal, lostSeal] = [sealOf(claimed), sealOf(lost)];
    const keyedBatch = [{ ...item({ customer_id: known.id }), keySeal: claimedSeal }, { ...item({ customer_id: known.id }), keySeal: lostSeal }];
    const keyedRecorded = await repository.createPendingTogether(owner, keyedBatch);
    expect(keyedRecorded.map((issuance) => issuance?.id ?? null)).toEqual([keyedBatch[0]!.issuance.id, null]);
    expect(claimedSeal.confirm).toHaveBeenCalledWith(true);
    expect(lostSeal.confirm).not.toHaveBeenCalled();
    const keyRows = await prisma.idempotencyKey.findMany({ where: { key_hash: { in: [claimed.keyHash, lost.keyHash] } }, select: { key_hash: true, result: true } });
    expect(keyRows.map((row) => [row.key_hash, row.result && Buffer.from(row.result).toString()]).sort()).toEqual([[claimed.keyHash, 'result'], [lost.keyHash, null]].sort());
    expect(await prisma.issuance.count({ where: { id: keyedBatch[1]!.issuance.id } })).toBe(0);
  });

  it('records keyed issuances made at the same moment in one statement too, each sealing its own key: a retry of each replays it (decision 0055)', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims, { capacity: 20 });
    const keyed = (index: number): CallerOptions => ({ ...options, idempotency: { key: `together-${index}`, fingerprint: `f${index}`, onReplayed: () => undefined } });
    const together = jest.spyOn(IssuanceRepository.prototype, 'createPendingTogether');
    const alone = jest.spyOn(IssuanceRepository.prototype, 'createPending');
    let first: ticketingV1.IssuedTickets[];
    try {
      first = await Promise.all(Array.from({ length: 10 }, (_, index) => issue(claims, saleRequest(eventId, tierId, { quantity: 1, payment: { reference: `o${index}`, amount: 2500 } }), keyed(index))));
      expect(alone).not.toHaveBeenCalled();
      expect(together.mock.calls.length).toBeLessThan(10);
    } finally {
      together.mockRestore();
      alone.mockRestore();
    }
    const retries = await Promise.all(Array.from({ length: 10 }, (_, index) => issue(claims, saleRequest(eventId, tierId, { quantity: 1, payment: { reference: `o${index}`, amount: 2500 } }), keyed(index))));
    expect(retries).toEqual(first);
    expect(new Set(first.map((issued) => issued.tickets[0]!.id)).size).toBe(10);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 10 });
    expect(await prisma.idempotencyKey.count({ where: { account_id: claims.tenant!.account_id, result: null } })).toBe(0);
  });

  it('prices a buyer named by email as the customer they are, or will be, when a discount limited per customer could apply', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    const buy = (amount: number, fields: Partial<ticketingV1.IssueTicketsRequest> = {}) =>
      issue(claims, saleRequest(eventId, tierId, { quantity: 1, payment: { reference: `order-${amount}`, amount }, ...fields }));
    catalogSide.double.customerDiscount = 500;
    try {
      // Not a customer yet: priced as the customer this issuance creates, who has redeemed nothing.
      await expect(buy(2500)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'payment.amount', message: expect.stringContaining('must be 2000') });
      expect(await prisma.customer.count({ where: { account_id: claims.tenant!.account_id } })).toBe(0);
      const first = await buy(2000);
      expect((await buy(2000)).tickets[0]!.customer_id).toBe(first.tickets[0]!.customer_id);
      const byId = await buy(2000, { customer: { reference: { $case: 'customer_id', value: first.tickets[0]!.customer_id } } });
      expect(byId.tickets[0]!.customer_id).toBe(first.tickets[0]!.customer_id);
    } finally {
      catalogSide.double.customerDiscount = 0;
    }
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 3 });
  });

  describe('discount codes (decision 0038)', () => {
    const withCode = (eventId: string, tierId: string, code: string, amount: number, email = 'ann@example.com') =>
      saleRequest(eventId, tierId, { discount_code: code, payment: { reference: `order-${email}`, amount }, customer: { reference: { $case: 'details', value: { email, name: '' } } } });

    it('prices the order with the code the buyer entered and counts it once against the discount’s limit', async () => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims);
      const discountId = catalogSide.double.addCodeDiscount('SPRING', 500, 1);
      await expect(issue(claims, withCode(eventId, tierId, 'spring', 5000))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'payment.amount', message: expect.stringContaining('must be 4500') });
      await expect(issue(claims, withCode(eventId, tierId, 'WINTER', 4500))).rejects.toMatchObject({ code: 'resource_missing', param: 'discount_code' });
      expect(await prisma.issuance.count({ where: { tier_id: tierId } })).toBe(0);

      const issued = await issue(claims, withCode(eventId, tierId, 'spring', 4500));
      expect(issued.tickets.map((ticket) => ticket.price)).toEqual([2250, 2250]);
      expect(await prisma.issuance.findUniqueOrThrow({ where: { id: issued.issuance_id } })).toMatchObject({ discount_id: discountId, amount: 4500n });
      expect(await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId)).toEqual([
        expect.objectContaining({ type: 'ticket.issued', data: issuedData(eventId, tierId, issued.issuance_id, issued.tickets, { amount: 4500, discount_id: discountId }) }),
      ]);
      expect(catalogSide.double.redemptions(discountId)).toBe(1);

      // Its one use is taken: the next buyer is told so, and nothing is held or recorded.
      await expect(issue(claims, withCode(eventId, tierId, 'SPRING', 4500, 'bo@example.com'))).rejects.toMatchObject({ code: 'discount_not_applicable', param: 'discount_code' });
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
      expect(await prisma.issuance.count({ where: { tier_id: tierId } })).toBe(1);
    });

    it('refuses an issuance whose discount was used up between its quote and its redemption, and gives its units back', async () => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims);
      const discountId = catalogSide.double.addCodeDiscount('LAST', 500, 1);
      /** Another order takes the discount's last use while this one is under way. */
      class RacedRedemption extends CatalogInventory {
        override async redeem(callClaims: InternalClaims, issuance: { id: string; customer_id: string; discount_id: string }): Promise<void> {
          await super.redeem(callClaims, { ...issuance, id: 'iss_other_order' });
          await super.redeem(callClaims, issuance);
        }
      }
      const raced = new RacedRedemption(catalogClients, options);
      const sell = issuanceThrough(raced);
      await expect(sell.sell(claims, tenantOf(claims), withCode(eventId, tierId, 'LAST', 4500))).rejects.toMatchObject({
        code: 'discount_not_applicable',
        status: 409,
        message: `The discount that priced this order (${discountId}) can no longer be used for it: other orders have used it the maximum number of times since this one was priced. Nothing was sold; issue again at the order's new total.`,
      });

      expect(await prisma.issuance.findMany({ where: { tier_id: tierId }, select: { status: true } })).toEqual([{ status: 'refused' }]);
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
      expect(catalogSide.double.redemptions(discountId)).toBe(1);
    });

    it('gives the redemption back when the hold lapsed before the commit: nothing was sold', async () => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims);
      const discountId = catalogSide.double.addCodeDiscount('LAPSE', 500, 5);
      const lapsing = new LapsingHold(catalogClients, options);
      const sell = issuanceThrough(lapsing);
      await expect(sell.sell(claims, tenantOf(claims), withCode(eventId, tierId, 'LAPSE', 4500))).rejects.toMatchObject({ code: 'issuance_expired' });
      expect(catalogSide.double.redemptions(discountId)).toBe(0);
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    });

    it('counts a redemption whose reply was lost once: the re-driver finishes the issuance', async () => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims);
      const discountId = catalogSide.double.addCodeDiscount('ONCE', 500, 5);
      /** Catalog counts the redemption, but the reply is lost. */
      class LostRedeemReply extends CatalogInventory {
        override async redeem(callClaims: InternalClaims, issuance: { id: string; customer_id: string; discount_id: string }): Promise<void> {
          await super.redeem(callClaims, issuance);
          throw new ApiError('service_unavailable', 'the reply was lost');
        }
      }
      const flaky = new LostRedeemReply(catalogClients, options);
      const sell = issuanceThrough(flaky);
      await expect(sell.sell(claims, tenantOf(claims), withCode(eventId, tierId, 'ONCE', 4500))).rejects.toMatchObject({ code: 'service_unavailable' });
      expect(await tierCounters(tierId)).toEqual({ held: 2, sold: 0 });

      const redrive = new RedriveStalledIssuancesUseCase(prisma, new DriveIssuanceUseCase(prisma, catalog, codes, payments), logger);
      expect(await redrive.execute(0)).toBeGreaterThanOrEqual(1);
      expect(await prisma.issuance.findMany({ where: { tier_id: tierId }, select: { status: true } })).toEqual([{ status: 'issued' }]);
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
      expect(catalogSide.double.redemptions(discountId)).toBe(1);
    });
  });

  it("answers a tier catalog has just refused as sold out without asking again, until units come back (decision 0037)", async () => {
    const memoCatalog = new CatalogInventory(catalogClients, options, new SoldOutMemo(60_000));
    await withTicketingServer(dependencies(memoCatalog), async (client) => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims, { capacity: 1 });
      const buy = (index: number) =>
        callUnary(client.issueTickets.bind(client), saleRequest(eventId, tierId, { quantity: 1, payment: { reference: `order-${index}`, amount: 2500 } }), claims, options);
      const [sold] = (await buy(1)).tickets;
      const asked = catalogSide.double.reserveCalls;
      await expect(buy(2)).rejects.toMatchObject({ code: 'sold_out', status: 409 });
      expect(catalogSide.double.reserveCalls).toBe(asked + 1);
      await expect(buy(3)).rejects.toMatchObject({ code: 'sold_out', status: 409, message: `Tier '${tierId}' is sold out.` });
      expect(catalogSide.double.reserveCalls).toBe(asked + 1);

      await callUnary(client.refundTicket.bind(client), { id: sold!.id, reason: 'Cannot attend' }, claims, options);
      expect((await buy(4)).tickets).toHaveLength(1);
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 1 });
    });
  });

  it('finishes an issuance cut off after catalog sold its units: the re-driver creates its tickets', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    /** Catalog commits, but the reply is lost, as when ticketing dies right after the call. */
    class LostCommitReply extends CatalogInventory {
      override async commit(callClaims: InternalClaims, issuanceId: string): Promise<void> {
        await super.commit(callClaims, issuanceId);
        throw new ApiError('service_unavailable', 'the reply was lost');
      }
    }
    const flaky = new LostCommitReply(catalogClients, options);
    const issueWithLostReply = issuanceThrough(flaky);
    await expect(issueWithLostReply.sell(claims, tenantOf(claims), saleRequest(eventId, tierId))).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
    expect(await prisma.ticket.count({ where: { tier_id: tierId } })).toBe(0);

    const redrive = new RedriveStalledIssuancesUseCase(prisma, new DriveIssuanceUseCase(prisma, catalog, codes, payments), logger);
    expect(await redrive.execute(0)).toBeGreaterThanOrEqual(1);
    expect(await prisma.ticket.count({ where: { tier_id: tierId } })).toBe(2);
    expect(await prisma.issuance.findMany({ where: { tier_id: tierId }, select: { status: true } })).toEqual([{ status: 'issued' }]);
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 2 });
  });

  it('cancels, on the re-driver’s pass, the tickets an issuance in flight created after its event’s cancellation was applied', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    // The consumer applied event.canceled while the issuance's units were already held in catalog.
    await new EventSettingsRepository(prisma).save(tenantOf(claims), { event_id: eventId, status: 'canceled', waiting_room_enabled: false, admission_rate_per_minute: null }, new Date());
    const issued = await issue(claims, saleRequest(eventId, tierId));
    const statuses = () => prisma.ticket.findMany({ where: { issuance_id: issued.issuance_id }, select: { status: true } });
    expect(await statuses()).toEqual([{ status: 'valid' }, { status: 'valid' }]);

    const aDayLater = new CancelLateTicketsUseCase(prisma, () => new Date(Date.now() + LATE_CANCELLATION_WINDOW_MS + 60_000));
    expect(await aDayLater.execute()).toBe(0);
    expect(await new CancelLateTicketsUseCase(prisma).execute()).toBeGreaterThanOrEqual(2);
    expect(await statuses()).toEqual([{ status: 'canceled' }, { status: 'canceled' }]);
    const announced = await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId);
    expect(announced.map((message) => message.type)).toEqual(['ticket.issued', 'ticket.canceled', 'ticket.canceled']);
    expect(ofType(announced, 'ticket.canceled').map((message) => message.data)).toEqual(
      issued.tickets.map((ticket) => ({
        change_id: expect.stringMatching(/^tch_/),
        ticket_id: ticket.id,
        event_id: eventId,
        tier_id: tierId,
        customer_id: ticket.customer_id,
        status: 'canceled',
        code_version: 1,
        price: 2500,
        currency: 'EUR',
        reason: 'The event was canceled.',
      })),
    );
    expect(await new CancelLateTicketsUseCase(prisma).execute()).toBe(0);
  });

  it('lists and reads tickets by event, customer, tier and status, one tenant and mode only', async () => {
    const claims = tenant();
    const first = await onSale(claims);
    const second = await onSale(claims);
    const bob = await callUnary(customers.createCustomer.bind(customers), { email: 'bob@example.com', name: '' }, claims, options);
    const a = await issue(claims, saleRequest(first.eventId, first.tierId));
    const b = await issue(claims, saleRequest(second.eventId, second.tierId, { quantity: 1, payment: { reference: 'o', amount: 2500 }, customer: { reference: { $case: 'customer_id', value: bob.id } } }));
    const list = (filters: Partial<ticketingV1.ListTicketsRequest>, who = claims) =>
      callUnary(tickets.listTickets.bind(tickets), { page: { limit: 10, starting_after: '' }, event_id: '', customer_id: '', status: '', tier_id: '', ...filters }, who, options);
    const ids = (page: ticketingV1.TicketList) => page.data.map((ticket) => ticket.id);
    expect(ids(await list({}))).toEqual([...b.tickets, ...a.tickets].map((ticket) => ticket.id).sort().reverse());
    expect(ids(await list({ event_id: first.eventId }))).toEqual(a.tickets.map((ticket) => ticket.id).reverse());
    expect(ids(await list({ customer_id: bob.id }))).toEqual([b.tickets[0]!.id]);
    expect(ids(await list({ tier_id: second.tierId, status: 'valid' }))).toEqual([b.tickets[0]!.id]);
    expect(ids(await list({ status: 'refunded' }))).toEqual([]);
    await expect(list({ status: 'lost' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'status' });
    expect(ids(await list({}, tenant()))).toEqual([]);
    const liveTwin: InternalClaims = { ...claims, tenant: { account_id: claims.tenant!.account_id, mode: 'live' } };
    await expect(callUnary(tickets.getTicket.bind(tickets), { id: b.tickets[0]!.id }, liveTwin, options)).rejects.toMatchObject({ code: 'resource_missing' });
    expect(await callUnary(tickets.getTicket.bind(tickets), { id: b.tickets[0]!.id }, claims, options)).toEqual(b.tickets[0]);
  });

  it('walks a filtered list past a ticket that stopped matching the filter mid-walk: its id still marks the place', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims);
    const sold = (await issue(claims, saleRequest(eventId, tierId, { quantity: 4, payment: { reference: 'o', amount: 10_000 } }))).tickets.map((ticket) => ticket.id).reverse();
    const validPage = (startingAfter: string, who = claims) =>
      callUnary(tickets.listTickets.bind(tickets), { page: { limit: 2, starting_after: startingAfter }, event_id: eventId, customer_id: '', status: 'valid', tier_id: '' }, who, options);

    const first = await validPage('');
    expect(first.data.map((ticket) => ticket.id)).toEqual(sold.slice(0, 2));
    // The last item seen is refunded before the next page is asked for.
    await callUnary(tickets.refundTicket.bind(tickets), { id: sold[1]!, reason: '' }, claims, options);
    const next = await validPage(sold[1]!);
    expect({ ids: next.data.map((ticket) => ticket.id), has_more: next.has_more }).toEqual({ ids: sold.slice(2), has_more: false });
    // Another tenant's ticket marks no place in this tenant's lists.
    await expect(validPage(sold[1]!, tenant())).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after' });
  });

  it('issues comps at price 0 with their reason, counted against capacity, and lists them as the guest list', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims, { capacity: 3 });
    const compRequest = (fields: Partial<ticketingV1.IssueCompsRequest> = {}): ticketingV1.IssueCompsRequest => ({
      event_id: eventId,
      tier_id: tierId,
      quantity: 0,
      customer: { reference: { $case: 'details', value: { email: 'guest@example.com', name: 'Sam' } } },
      reason: 'Artist guest list',
      seat_hold_id: '',
      ...fields,
    });
    const comp = (request: ticketingV1.IssueCompsRequest) => callUnary(tickets.issueComps.bind(tickets), request, claims, options);
    const one = await comp(compRequest());
    expect(one).toMatchObject({ event_id: eventId, tier_id: tierId, quantity: 1, reason: 'Artist guest list', livemode: false });
    expect(one.tickets).toEqual([expect.objectContaining({ price: 0, currency: 'EUR', status: 'valid', issuance_id: one.id })]);
    const two = await comp(compRequest({ quantity: 2, reason: 'Press' }));
    await expect(comp(compRequest())).rejects.toMatchObject({ code: 'sold_out' });
    await expect(comp(compRequest({ reason: ' ' }))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'reason' });
    expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 3 });

    await issue(claims, saleRequest(eventId, tierId, { quantity: 1, payment: { reference: 'o', amount: 2500 } })).catch(() => undefined);
    const guestList = await callUnary(tickets.listComps.bind(tickets), { event_id: eventId, page: { limit: 1, starting_after: '' } }, claims, options);
    expect(guestList.data.map((entry) => entry.id)).toEqual([two.id]);
    expect(guestList.has_more).toBe(true);
    const next = await callUnary(tickets.listComps.bind(tickets), { event_id: eventId, page: { limit: 10, starting_after: two.id } }, claims, options);
    expect(next).toEqual({ data: [one], has_more: false });
    const guestListOf = (event: string, who: InternalClaims) => callUnary(tickets.listComps.bind(tickets), { event_id: event, page: { limit: 10, starting_after: '' } }, who, options);
    // An event without comps has an empty guest list; another tenant's event, or none, has no guest list at all.
    expect((await guestListOf((await onSale(claims)).eventId, claims)).data).toEqual([]);
    await expect(guestListOf(eventId, tenant())).rejects.toMatchObject({ code: 'resource_missing' });
    await expect(guestListOf('evt_01JZZZZZZZZZZZZZZZZZZZZZZZ', claims)).rejects.toMatchObject({ code: 'resource_missing' });
  });

  it('announces comps with ticket.issued of kind comp and amount 0; a refused comp announces nothing', async () => {
    const claims = tenant();
    const { eventId, tierId } = await onSale(claims, { capacity: 2 });
    const compRequest = (quantity: number): ticketingV1.IssueCompsRequest => ({
      event_id: eventId,
      tier_id: tierId,
      quantity,
      customer: { reference: { $case: 'details', value: { email: 'guest@example.com', name: 'Sam' } } },
      reason: 'Artist guest list',
      seat_hold_id: '',
    });
    const comped = await callUnary(tickets.issueComps.bind(tickets), compRequest(2), claims, options);
    await expect(callUnary(tickets.issueComps.bind(tickets), compRequest(1), claims, options)).rejects.toMatchObject({ code: 'sold_out' });

    expect(await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId)).toEqual([
      expect.objectContaining({
        type: 'ticket.issued',
        account_id: claims.tenant!.account_id,
        mode: 'test',
        data: issuedData(eventId, tierId, comped.id, comped.tickets, { amount: 0, kind: 'comp' }),
      }),
    ]);
  });

  it('creates customers once per email, case-insensitively', async () => {
    const claims = tenant();
    const created = await callUnary(customers.createCustomer.bind(customers), { email: ' Cleo@Example.com ', name: 'Cleo' }, claims, options);
    expect(created).toMatchObject({ email: 'cleo@example.com', name: 'Cleo' });
    await expect(callUnary(customers.createCustomer.bind(customers), { email: 'cleo@example.com', name: '' }, claims, options)).rejects.toMatchObject({
      code: 'customer_exists',
      message: expect.stringContaining(created.id),
    });
    await expect(callUnary(customers.createCustomer.bind(customers), { email: 'not-an-email', name: '' }, claims, options)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'email' });
    expect(await callUnary(customers.createCustomer.bind(customers), { email: 'cleo@example.com', name: '' }, tenant(), options)).toMatchObject({ email: 'cleo@example.com' });
  });
  describe('ticket changes', () => {
    const oneTicket = async (claims: InternalClaims) => {
      const { eventId, tierId } = await onSale(claims);
      const issued = await issue(claims, saleRequest(eventId, tierId, { quantity: 1, payment: { reference: 'o', amount: 2500 } }));
      return { eventId, tierId, ticket: issued.tickets[0]! };
    };
    const bo = { reference: { $case: 'details' as const, value: { email: 'bo@example.com', name: 'Bo' } } };

    it('replays a committed transfer, refund or revocation to its retry under the same Idempotency-Key, even once the ticket changed again', async () => {
      const claims = tenant();
      const keyed = (key: string): CallerOptions => ({ ...options, idempotency: { key, fingerprint: `fingerprint-${key}`, onReplayed: () => undefined } });
      const { tierId, ticket } = await oneTicket(claims);
      // Each first reply was lost: the client retries under the same key after the ticket changed again.
      const transferred = await callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: bo }, claims, keyed('transfer'));
      const refunded = await callUnary(tickets.refundTicket.bind(tickets), { id: ticket.id, reason: '' }, claims, keyed('refund'));
      expect(await callUnary(tickets.refundTicket.bind(tickets), { id: ticket.id, reason: '' }, claims, keyed('refund'))).toEqual(refunded);
      expect(await callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: bo }, claims, keyed('transfer'))).toEqual(transferred);
      const other = (await oneTicket(claims)).ticket;
      const revoked = await callUnary(tickets.revokeTicket.bind(tickets), { id: other.id, reason: 'Fraud' }, claims, keyed('revoke'));
      expect(await callUnary(tickets.revokeTicket.bind(tickets), { id: other.id, reason: 'Fraud' }, claims, keyed('revoke'))).toEqual(revoked);
      // A new refund of the refunded ticket is still refused, and nothing moved twice.
      await expect(callUnary(tickets.refundTicket.bind(tickets), { id: ticket.id, reason: '' }, claims, keyed('refund-again'))).rejects.toMatchObject({ code: 'ticket_not_valid', status: 409 });
      expect(await prisma.ticketChange.count({ where: { ticket_id: ticket.id } })).toBe(2);
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    });

    it('replays a committed transfer or seat hold to its retry under the same key once the event was canceled, which would refuse it anew', async () => {
      const claims = tenant();
      const keyed = (key: string): CallerOptions => ({ ...options, idempotency: { key, fingerprint: `fingerprint-${key}`, onReplayed: () => undefined } });
      const { eventId, ticket } = await oneTicket(claims);
      catalogSide.double.addSeats(eventId, ticket.tier_id, 1, 2);
      const holds = createGrpcClient(ticketingV1.SeatHoldServiceClient, `127.0.0.1:${ticketingServer.port}`);
      try {
        const holdRequest = { event_id: eventId, seat_ids: ['S:1:1'], ttl_seconds: 0, admission_token: '', purpose: '' };
        const held = await callUnary(holds.createSeatHold.bind(holds), holdRequest, claims, keyed('hold'));
        const transferred = await callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: bo }, claims, keyed('transfer'));
        // Both first replies were lost; catalog cancels the event before the client retries.
        catalogSide.double.cancelEvent(eventId);
        expect(await callUnary(holds.createSeatHold.bind(holds), holdRequest, claims, keyed('hold'))).toEqual(held);
        expect(await callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: bo }, claims, keyed('transfer'))).toEqual(transferred);
        // Anew, both are refused.
        await expect(callUnary(holds.createSeatHold.bind(holds), { ...holdRequest, seat_ids: ['S:1:2'] }, claims, keyed('hold-again'))).rejects.toMatchObject({ code: 'event_not_on_sale' });
        await expect(callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: { reference: { $case: 'details', value: { email: 'cy@example.com', name: '' } } } }, claims, keyed('transfer-again'))).rejects.toMatchObject({ code: 'ticket_not_valid' });
      } finally {
        holds.close();
      }
    });

    it('keeps every change as history and publishes it through the outbox with the ticket as it leaves it', async () => {
      const claims = tenant();
      const { eventId, tierId, ticket } = await oneTicket(claims);
      const transferred = await callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: bo }, claims, options);
      const refunded = await callUnary(tickets.refundTicket.bind(tickets), { id: ticket.id, reason: 'Cannot attend' }, claims, options);
      expect(refunded).toMatchObject({ status: 'refunded', customer_id: transferred.customer_id, code_version: 2 });
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });

      const messages = await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId);
      expect(messages.map((message) => message.type)).toEqual(['ticket.issued', 'ticket.transferred', 'ticket.refunded']);
      expect(messages[1]!.data).toEqual({
        change_id: expect.stringMatching(/^tch_/),
        ticket_id: ticket.id,
        event_id: eventId,
        tier_id: tierId,
        customer_id: transferred.customer_id,
        from_customer_id: ticket.customer_id,
        status: 'valid',
        code_version: 2,
        price: 2500,
        currency: 'EUR',
        reason: null,
      });
      expect(messages[2]!.data).toEqual({
        change_id: expect.stringMatching(/^tch_/),
        ticket_id: ticket.id,
        event_id: eventId,
        tier_id: tierId,
        customer_id: transferred.customer_id,
        status: 'refunded',
        code_version: 2,
        price: 2500,
        currency: 'EUR',
        reason: 'Cannot attend',
        // How the ticket was paid, so payments can give a payment intent's money back (decision 0064).
        payment: { type: 'external', reference: 'o' },
      });
      const history = await prisma.ticketChange.findMany({ where: { ticket_id: ticket.id }, orderBy: { id: 'asc' } });
      expect(history).toEqual([
        expect.objectContaining({ kind: 'transfer', from_customer_id: ticket.customer_id, to_customer_id: transferred.customer_id, code_version: 2, return_reservation_id: null }),
        expect.objectContaining({ kind: 'refund', reason: 'Cannot attend', return_reservation_id: ticket.issuance_id, returned_at: expect.any(Date) }),
      ]);
    });

    it('revokes with its reason, publishes ticket.revoked with the ticket as it leaves it, and gives the unit back', async () => {
      const claims = tenant();
      const { eventId, tierId, ticket } = await oneTicket(claims);
      await expect(callUnary(tickets.revokeTicket.bind(tickets), { id: ticket.id, reason: ' ' }, claims, options)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'reason' });
      const revoked = await callUnary(tickets.revokeTicket.bind(tickets), { id: ticket.id, reason: 'Resold by a tout' }, claims, options);
      expect(revoked).toMatchObject({ id: ticket.id, status: 'revoked', code_version: 1, customer_id: ticket.customer_id });
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });

      const messages = await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId);
      expect(messages.map((message) => message.type)).toEqual(['ticket.issued', 'ticket.revoked']);
      const [change] = await prisma.ticketChange.findMany({ where: { ticket_id: ticket.id } });
      expect(change).toMatchObject({ kind: 'revoke', reason: 'Resold by a tout', code_version: 1, returned_at: expect.any(Date) });
      expect(messages[1]).toMatchObject({ account_id: claims.tenant!.account_id, mode: 'test', request_id: 'req_test' });
      expect(messages[1]!.data).toEqual({
        change_id: change!.id,
        ticket_id: ticket.id,
        event_id: eventId,
        tier_id: tierId,
        customer_id: ticket.customer_id,
        status: 'revoked',
        code_version: 1,
        price: 2500,
        currency: 'EUR',
        reason: 'Resold by a tout',
      });
      await expect(callUnary(tickets.revokeTicket.bind(tickets), { id: ticket.id, reason: 'Again' }, claims, options)).rejects.toMatchObject({ code: 'ticket_not_valid' });
      expect(await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId)).toHaveLength(2);
    });

    it('refuses an upgrade into a tier whose minimum per order was raised after the upgrade read it on tier_id, not on a quantity the request does not have', async () => {
      const claims = tenant();
      const { eventId, ticket } = await oneTicket(claims);
      const vip = catalogSide.double.addTier(tenantOf(claims), { price: 9000, capacity: 5, rank: 2, eventId }).tierId;
      /** Catalog refuses the unit as it does once the tier's min_per_order is 2. */
      class RaisedMinimum extends CatalogInventory {
        override async reserve(): Promise<never> {
          throw new ApiError('parameter_invalid', `quantity must be at least 2 for tier '${vip}'.`, { param: 'quantity' });
        }
      }
      const raised = new RaisedMinimum(catalogClients, options);
      const upgrade = new UpgradeTicketUseCase(prisma, raised, driveUpgrade(prisma, { catalog: raised, codes, payments }, logger), noKeys(), logger);
      await expect(upgrade.execute(claims, tenantOf(claims), { id: ticket.id, tier_id: vip, payment: { reference: 'up', amount: 6500 } })).rejects.toMatchObject({
        code: 'parameter_invalid',
        param: 'tier_id',
        message: `Tier '${vip}' sells more than one ticket per order, so no single ticket is upgraded into it.`,
      });
      expect(await callUnary(tickets.getTicket.bind(tickets), { id: ticket.id }, claims, options)).toMatchObject({ status: 'valid', tier_id: ticket.tier_id, code_version: 1 });
    });

    it('finishes an upgrade cut off after catalog sold the new unit: the ticket waits, then the re-driver moves it', async () => {
      const claims = tenant();
      const { eventId, tierId, ticket } = await oneTicket(claims);
      const vip = catalogSide.double.addTier(tenantOf(claims), { price: 9000, capacity: 5, rank: 2, eventId }).tierId;
      /** Catalog commits the new unit, but the reply is lost, as when ticketing dies right after the call. */
      class LostCommitReply extends CatalogInventory {
        override async commit(callClaims: InternalClaims, id: string): Promise<void> {
          await super.commit(callClaims, id);
          throw new ApiError('service_unavailable', 'the reply was lost');
        }
      }
      const flaky = new LostCommitReply(catalogClients, options);
      const upgrade = new UpgradeTicketUseCase(prisma, flaky, driveUpgrade(prisma, { catalog: flaky, codes, payments }, logger), noKeys(), logger);
      await expect(upgrade.execute(claims, tenantOf(claims), { id: ticket.id, tier_id: vip, payment: { reference: 'up', amount: 6500 } })).rejects.toMatchObject({ code: 'service_unavailable' });
      expect(await tierCounters(vip)).toEqual({ held: 0, sold: 1 });
      await expect(callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: bo }, claims, options)).rejects.toMatchObject({ code: 'ticket_changed' });

      expect(await driveUpgrade(prisma, { catalog, codes, payments }, logger).redrive(0)).toBeGreaterThanOrEqual(1);
      const moved = await callUnary(tickets.getTicket.bind(tickets), { id: ticket.id }, claims, options);
      expect(moved).toMatchObject({ tier_id: vip, price: 9000, code_version: 2 });
      expect(await tierCounters(vip)).toEqual({ held: 0, sold: 1 });
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
      const upgraded = (await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId)).map(({ type, data }) => ({ type, data }));
      expect(upgraded).toEqual([
        { type: 'ticket.issued', data: expect.objectContaining({ ticket_ids: [ticket.id] }) },
        {
          type: 'ticket.upgraded',
          data: {
            change_id: expect.stringMatching(/^tch_/),
            ticket_id: ticket.id,
            event_id: eventId,
            tier_id: vip,
            from_tier_id: tierId,
            customer_id: ticket.customer_id,
            status: 'valid',
            code_version: 2,
            price: 9000,
            amount: 6500,
            currency: 'EUR',
            reason: null,
          },
        },
      ]);
    });

    it('upgrades a ticket paid through a payment intent of exactly the difference, which pays for no other upgrade (decision 0064)', async () => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims, { capacity: 10 });
      const sold = await issue(claims, saleRequest(eventId, tierId, { quantity: 2, payment: { reference: 'o', amount: 5000 } }));
      const vip = catalogSide.double.addTier(tenantOf(claims), { price: 9000, capacity: 10, rank: 2, eventId }).tierId;
      const upgrade = (ticketId: string, intentId: string) => callUnary(tickets.upgradeTicket.bind(tickets), { id: ticketId, tier_id: vip, payment: undefined, payment_intent_id: intentId }, claims, options);
      const intent = payments.succeeded(6500);
      const moved = await upgrade(sold.tickets[0]!.id, intent);
      expect(moved).toMatchObject({ tier_id: vip, price: 9000 });
      expect(payments.claimedBy(intent)).not.toBeNull();
      await expect(upgrade(sold.tickets[1]!.id, intent)).rejects.toMatchObject({ code: 'payment_intent_used' });
      await expect(upgrade(sold.tickets[1]!.id, payments.succeeded(6000))).rejects.toMatchObject({ code: 'parameter_invalid', param: 'payment.payment_intent' });
      expect(await tierCounters(vip)).toEqual({ held: 0, sold: 1 });
      expect(await prisma.ticketChange.findFirst({ where: { ticket_id: sold.tickets[0]!.id, kind: 'upgrade' }, select: { payment_type: true, payment_reference: true } })).toEqual({ payment_type: 'payment_intent', payment_reference: intent });
    });

    it('of double-submitted upgrades of one ticket only one holds a unit, so every ticket of a rush is upgraded while the tier has room (decision 0032)', async () => {
      const claims = tenant();
      const { eventId, tierId } = await onSale(claims, { capacity: 10 });
      const sold = await issue(claims, saleRequest(eventId, tierId, { quantity: 10, payment: { reference: 'o', amount: 25_000 } }));
      const vip = catalogSide.double.addTier(tenantOf(claims), { price: 9000, capacity: 10, rank: 2, eventId }).tierId;
      const upgrade = (ticketId: string) => callUnary(tickets.upgradeTicket.bind(tickets), { id: ticketId, tier_id: vip, payment: { reference: 'up', amount: 6500 }, payment_intent_id: '' }, claims, options);
      const outcomes = await Promise.allSettled(sold.tickets.flatMap((ticket) => [upgrade(ticket.id), upgrade(ticket.id), upgrade(ticket.id)]));
      const codes = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'upgraded' : (outcome.reason as ApiError).code));
      expect({ upgraded: codes.filter((code) => code === 'upgraded').length, refused: [...new Set(codes.filter((code) => code !== 'upgraded'))] }).toEqual({ upgraded: 10, refused: ['ticket_changed'] });
      expect(await tierCounters(vip)).toEqual({ held: 0, sold: 10 });
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    });

    it('lets go of a ticket whose upgrade was refused or cut off before it was recorded, and the re-driver of one whose process died', async () => {
      const claims = tenant();
      const { tierId, ticket } = await oneTicket(claims);
      const vip = catalogSide.double.addTier(tenantOf(claims), { price: 9000, capacity: 1, rank: 2, eventId: ticket.event_id }).tierId;
      /** The call that holds the unit fails, its outcome unknown to the caller. */
      class LostReserve extends CatalogInventory {
        override async reserve(): Promise<never> {
          throw new ApiError('service_unavailable', 'catalog did not answer');
        }
      }
      const lost = new LostReserve(catalogClients, options);
      const upgradeThrough = (inventory: CatalogInventory) => new UpgradeTicketUseCase(prisma, inventory, driveUpgrade(prisma, { catalog: inventory, codes, payments }, logger), noKeys(), logger);
      const request = { id: ticket.id, tier_id: vip, payment: { reference: 'up', amount: 6500 }, payment_intent_id: '' };
      await expect(upgradeThrough(lost).execute(claims, tenantOf(claims), request)).rejects.toMatchObject({ code: 'service_unavailable' });
      await issue(claims, saleRequest(ticket.event_id, vip, { quantity: 1, payment: { reference: 'v', amount: 9000 } }));
      await expect(upgradeThrough(catalog).execute(claims, tenantOf(claims), request)).rejects.toMatchObject({ code: 'sold_out' });
      expect(await prisma.ticket.findUniqueOrThrow({ where: { id: ticket.id }, select: { pending_change_id: true } })).toEqual({ pending_change_id: null });

      // A process that took the ticket and died before recording the upgrade.
      expect(await new UpgradeRepository(prisma).take(tenantOf(claims), ticket, newId('tch'))).toBe(true);
      await expect(callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: bo }, claims, options)).rejects.toMatchObject({ code: 'ticket_changed' });
      const redrive = (afterMs: number) => driveUpgrade(prisma, { catalog, codes, payments }, logger).redrive(afterMs);
      await redrive(60_000);
      await expect(callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: bo }, claims, options)).rejects.toMatchObject({ code: 'ticket_changed' });
      expect(await redrive(0)).toBeGreaterThanOrEqual(1);
      expect(await callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: bo }, claims, options)).toMatchObject({ tier_id: tierId, code_version: 2 });
      expect(await prisma.ticketChange.count({ where: { ticket_id: ticket.id, kind: 'upgrade' } })).toBe(0);
    });

    it('answers a refund with the refunded ticket inside the caller’s deadline while catalog does not answer at all; the re-driver gives the unit back (decision 0032)', async () => {
      const claims = tenant();
      const { tierId, ticket } = await oneTicket(claims);
      // Catalog stopped (as under SIGSTOP): it takes connections and never answers on them.
      const sockets: Socket[] = [];
      const stopped = createNetServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => stopped.listen(0, '127.0.0.1', resolve));
      const stoppedClients = catalogClientsAt(`127.0.0.1:${(stopped.address() as AddressInfo).port}`);
      // Ticketing's calls to catalog wait up to 10 s, as the service's do; the gateway gives the whole request 8 s here.
      const paused = new CatalogInventory(stoppedClients, { tokenSecret, deadlineMs: 10_000 });
      try {
        await withTicketingServer(dependencies(paused), async (client) => {
          const refunded = await callUnary(client.refundTicket.bind(client), { id: ticket.id, reason: '' }, claims, { ...options, deadlineMs: 8_000 });
          expect(refunded).toMatchObject({ id: ticket.id, status: 'refunded' });
        });
      } finally {
        for (const stoppedClient of Object.values(stoppedClients)) stoppedClient.close();
        for (const socket of sockets) socket.destroy();
        stopped.close();
      }
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 1 });
      expect(await new ReturnUnitsUseCase(prisma, catalog, logger).redrive(0)).toBeGreaterThanOrEqual(1);
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    });

    it('answers a refund whose unit catalog could not take back yet; the re-driver gives it back, once', async () => {
      const claims = tenant();
      const { tierId, ticket } = await oneTicket(claims);
      /** Catalog takes the unit back, but the reply is lost, as when the connection drops. */
      class LostReturnReply extends CatalogInventory {
        override async returnUnit(callClaims: InternalClaims, returnId: string, issuanceId: string): Promise<void> {
          await super.returnUnit(callClaims, returnId, issuanceId);
          throw new ApiError('service_unavailable', 'the reply was lost');
        }
      }
      const flaky = new LostReturnReply(catalogClients, options);
      const refund = new RetireTicketUseCase(prisma, new ReturnUnitsUseCase(prisma, flaky, logger), flaky, logger);
      expect(await refund.execute(claims, tenantOf(claims), 'refund', { id: ticket.id, reason: '' })).toMatchObject({ status: 'refunded' });
      expect(await prisma.ticketChange.findMany({ where: { ticket_id: ticket.id }, select: { returned_at: true } })).toEqual([{ returned_at: null }]);

      const units = new ReturnUnitsUseCase(prisma, catalog, logger);
      expect(await units.redrive(0)).toBeGreaterThanOrEqual(1);
      expect(await prisma.ticketChange.findMany({ where: { ticket_id: ticket.id }, select: { returned_at: true } })).toEqual([{ returned_at: expect.any(Date) }]);
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
      await units.redrive(0);
      expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 0 });
    });

    describe('an event canceled in catalog (decision 0032)', () => {
      const parseCatalogEvent = createEventParser(CATALOG_EVENT_TOPIC);
      /** `event.canceled` (or another change of the event) as catalog publishes it, checked as the consumer checks each message before its handler sees it. */
      const eventCanceled = (claims: InternalClaims, eventId: string, { type, status }: { type: 'event.canceled' | 'event.updated'; status: 'canceled' | 'published' } = { type: 'event.canceled', status: 'canceled' }) => {
        const { payload } = outboxRow({
          topic: CATALOG_EVENT_TOPIC,
          type,
          aggregateId: eventId,
          tenant: tenantOf(claims),
          data: {
            event_id: eventId,
            name: 'Night',
            status,
            starts_at: '2027-07-01T20:00:00.000Z',
            ends_at: null,
            currency: 'EUR',
            organization_id: null,
            waiting_room: { enabled: false, admission_rate_per_minute: null },
          },
        });
        const parsed = parseCatalogEvent(JSON.parse(payload));
        if (parsed.outcome !== 'valid') throw new Error(`event.canceled does not parse: ${JSON.stringify(parsed)}`);
        return parsed.event;
      };
      /** What the consumer of catalog.event.v1 does with a message it parsed: the use case, under its inbox. */
      const apply = (change: CatalogEventChange) => new RecordEventSettingsUseCase(prisma, EVENT_SETTINGS_INBOX).execute(change);
      const statusesOf = async (ids: string[]) =>
        Object.fromEntries((await prisma.ticket.findMany({ where: { id: { in: ids } }, select: { id: true, status: true } })).map((row) => [row.id, row.status]));
      const retire = (claims: InternalClaims, how: 'refund' | 'revoke', id: string) =>
        how === 'refund'
          ? callUnary(tickets.refundTicket.bind(tickets), { id, reason: '' }, claims, options)
          : callUnary(tickets.revokeTicket.bind(tickets), { id, reason: 'Fraud' }, claims, options);

      it('cancels the tickets of a large event a batch per transaction, so no transaction outlasts its limit (a probe’s 50,000 tickets never were canceled)', async () => {
        const claims = tenant();
        const { eventId, tierId } = await onSale(claims, { capacity: 1_200 });
        for (let order = 0; order < 12; order += 1) await issue(claims, saleRequest(eventId, tierId, { quantity: 100, payment: { reference: `bulk-${order}`, amount: 250_000 } }));
        const ids = (await prisma.ticket.findMany({ where: { event_id: eventId }, select: { id: true }, orderBy: { id: 'asc' } })).map((ticket) => ticket.id);
        const countCanceled = () => prisma.ticket.count({ where: { event_id: eventId, status: 'canceled' } });
        let applying!: Promise<boolean>;
        await prisma.$transaction(
          async (tx) => {
            // A ticket of the third batch is being changed elsewhere: the cancellation waits for it there.
            await tx.$queryRaw`SELECT id FROM tickets WHERE id = ${ids[1_100]} FOR UPDATE`;
            applying = apply(eventCanceled(claims, eventId));
            await waitForLockWaiters(prisma);
            // The first two batches are committed already, each in a transaction of its own.
            expect(await countCanceled()).toBe(1_000);
          },
          { timeout: 20_000 },
        );
        expect(await applying).toBe(true);
        expect(await countCanceled()).toBe(1_200);
        expect(ofType(await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId), 'ticket.canceled')).toHaveLength(1_200);
      }, 60_000);

      it('cancels each valid ticket of the event, in its history and announced with ticket.canceled; refunded, revoked and checked-in ones stay, and no unit moves', async () => {
        const claims = tenant();
        const { eventId, tierId } = await onSale(claims);
        const first = await issue(claims, saleRequest(eventId, tierId, { quantity: 3, payment: { reference: 'o-1', amount: 7500 } }));
        const second = await issue(claims, saleRequest(eventId, tierId, { payment: { reference: 'o-2', amount: 5000 } }));
        const [kept, alsoKept, revoked] = first.tickets;
        const [refunded, checkedIn] = second.tickets;
        await retire(claims, 'revoke', revoked!.id);
        await retire(claims, 'refund', refunded!.id);
        // Check-in arrives with scanning (issue 11): the ticket is put in the state it will leave.
        await prisma.ticket.update({ where: { id: checkedIn!.id }, data: { status: 'checked_in' } });
        const elsewhere = await onSale(claims);
        const [otherEvents] = (await issue(claims, saleRequest(elsewhere.eventId, elsewhere.tierId, { quantity: 1, payment: { reference: 'o-3', amount: 2500 } }))).tickets;
        expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 3 });

        expect(await apply(eventCanceled(claims, eventId))).toBe(true);

        expect(await statusesOf([...first.tickets, ...second.tickets, otherEvents!].map((ticket) => ticket.id))).toEqual({
          [kept!.id]: 'canceled',
          [alsoKept!.id]: 'canceled',
          [revoked!.id]: 'revoked',
          [refunded!.id]: 'refunded',
          [checkedIn!.id]: 'checked_in',
          [otherEvents!.id]: 'valid',
        });
        // The event sells no more: catalog's count is left as it was.
        expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 3 });
        expect(await new EventSettingsRepository(prisma).find(tenantOf(claims), eventId)).toMatchObject({ status: 'canceled' });

        const history = await prisma.ticketChange.findMany({ where: { kind: 'cancel', ticket_id: { in: [...first.tickets, ...second.tickets].map((ticket) => ticket.id) } }, orderBy: { ticket_id: 'asc' } });
        expect(history).toEqual(
          [kept!, alsoKept!]
            .sort((a, b) => (a.id < b.id ? -1 : 1))
            .map((ticket) =>
              expect.objectContaining({ ticket_id: ticket.id, code_version: 1, from_customer_id: ticket.customer_id, to_customer_id: ticket.customer_id, reason: 'The event was canceled.', return_reservation_id: null }),
            ),
        );
        const messages = await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId);
        expect(messages.map((message) => message.type)).toEqual(['ticket.issued', 'ticket.issued', 'ticket.revoked', 'ticket.refunded', 'ticket.canceled', 'ticket.canceled']);
        const canceled = ofType(messages, 'ticket.canceled');
        expect(canceled.map((message) => message.data).sort((a, b) => (a.ticket_id < b.ticket_id ? -1 : 1))).toEqual(
          history.map((change) => ({
            change_id: change.id,
            ticket_id: change.ticket_id,
            event_id: eventId,
            tier_id: tierId,
            customer_id: kept!.customer_id,
            status: 'canceled',
            code_version: 1,
            price: 2500,
            currency: 'EUR',
            reason: 'The event was canceled.',
          })),
        );
        expect(canceled.every((message) => message.account_id === claims.tenant!.account_id && message.mode === 'test')).toBe(true);
        expect(await publishedOn(prisma, TICKETING_TICKET_TOPIC, elsewhere.eventId)).toHaveLength(1);
      });

      it('changes nothing for a message naming another account than the event’s: its tickets stay valid and its settings as they were', async () => {
        const owner = tenant();
        const { eventId, tierId } = await onSale(owner);
        const sold = await issue(owner, saleRequest(eventId, tierId));
        await new EventSettingsRepository(prisma).save(tenantOf(owner), { event_id: eventId, status: 'published', waiting_room_enabled: false, admission_rate_per_minute: null }, new Date());

        expect(await apply(eventCanceled(tenant(), eventId))).toBe(false);
        expect(await statusesOf(sold.tickets.map((ticket) => ticket.id))).toEqual(Object.fromEntries(sold.tickets.map((ticket) => [ticket.id, 'valid'])));
        expect(await prisma.eventSettings.findUniqueOrThrow({ where: { event_id: eventId } })).toMatchObject({ account_id: owner.tenant!.account_id, status: 'published' });
        await new CancelLateTicketsUseCase(prisma).execute();
        expect(await statusesOf(sold.tickets.map((ticket) => ticket.id))).toEqual(Object.fromEntries(sold.tickets.map((ticket) => [ticket.id, 'valid'])));
      });

      it('applies event.canceled once: its redelivery, or catalog saying it again, cancels and announces nothing more', async () => {
        const claims = tenant();
        const { eventId, tierId } = await onSale(claims);
        const issued = await issue(claims, saleRequest(eventId, tierId));
        const ids = issued.tickets.map((ticket) => ticket.id);
        const canceled = eventCanceled(claims, eventId);
        const state = async () => ({
          tickets: await statusesOf(ids),
          history: await prisma.ticketChange.findMany({ where: { ticket_id: { in: ids } }, orderBy: { id: 'asc' } }),
          messages: (await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId)).map((message) => message.id),
          counters: await tierCounters(tierId),
        });

        expect(await apply(canceled)).toBe(true);
        const once = await state();
        expect(once.tickets).toEqual(Object.fromEntries(ids.map((id) => [id, 'canceled'])));
        expect(once.messages).toHaveLength(3);

        expect(await apply(canceled)).toBe(false);
        expect(await state()).toEqual(once);
        expect(await apply(eventCanceled(claims, eventId))).toBe(false);
        expect(await state()).toEqual(once);
      });

      it('keeps a canceled event canceled when an older message saying it was published arrives late (a redelivery, a replay)', async () => {
        const claims = tenant();
        const { eventId } = await onSale(claims);
        const published = eventCanceled(claims, eventId, { type: 'event.updated', status: 'published' });
        expect(await apply(published)).toBe(true);
        expect(await apply(eventCanceled(claims, eventId))).toBe(true);
        expect(await apply({ ...published, id: newId('msg') })).toBe(false);
        expect(await new EventSettingsRepository(prisma).find(tenantOf(claims), eventId)).toMatchObject({ status: 'canceled' });
      });

      it('keeps the newer waiting room when an older message about the event arrives late (a replay after the room was turned off)', async () => {
        const claims = tenant();
        const { eventId } = await onSale(claims);
        const published = eventCanceled(claims, eventId, { type: 'event.updated', status: 'published' });
        if (published.type !== 'event.updated') throw new Error(`expected event.updated, got ${published.type}`);
        const saying = (enabled: boolean, occurredAt: string): CatalogEventChange => ({
          ...published,
          id: newId('msg'),
          occurred_at: occurredAt,
          data: { ...published.data, waiting_room: { enabled, admission_rate_per_minute: enabled ? 60 : null } },
        });
        const roomOf = async () => (await new EventSettingsRepository(prisma).find(tenantOf(claims), eventId))?.waiting_room_enabled;

        expect(await apply(saying(true, '2026-11-25T12:00:01.000Z'))).toBe(true);
        expect(await apply(saying(false, '2026-11-25T12:00:03.000Z'))).toBe(true);
        expect(await apply(saying(true, '2026-11-25T12:00:02.000Z'))).toBe(false);
        expect(await roomOf()).toBe(false);
        expect(await apply(saying(true, '2026-11-25T12:00:04.000Z'))).toBe(true);
        expect(await roomOf()).toBe(true);
      });

      it('cancels each ticket once when deliveries of the cancellation race', async () => {
        const claims = tenant();
        const { eventId, tierId } = await onSale(claims, { capacity: 20 });
        const issued = await issue(claims, saleRequest(eventId, tierId, { quantity: 12, payment: { reference: 'o', amount: 30_000 } }));
        const canceled = eventCanceled(claims, eventId);

        const applied = await Promise.all([apply(canceled), apply(canceled), apply(eventCanceled(claims, eventId)), apply(eventCanceled(claims, eventId))]);

        // One delivery records the cancellation; the others find it recorded (the same message) or the copy final already.
        expect(applied.filter(Boolean)).toHaveLength(1);
        const ids = issued.tickets.map((ticket) => ticket.id);
        expect(await statusesOf(ids)).toEqual(Object.fromEntries(ids.map((id) => [id, 'canceled'])));
        expect(await prisma.ticketChange.count({ where: { ticket_id: { in: ids } } })).toBe(12);
        const announced = ofType(await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId), 'ticket.canceled').map((message) => message.data.ticket_id);
        expect(announced.sort()).toEqual([...ids].sort());
        expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 12 });
      });

      it('refuses to transfer, refund or revoke a valid ticket of an event catalog has canceled, before ticketing hears of it', async () => {
        const claims = tenant();
        const { eventId, ticket } = await oneTicket(claims);
        catalogSide.double.cancelEvent(eventId);

        const refusal = { code: 'ticket_not_valid', status: 409, message: `Ticket '${ticket.id}' cannot be transferred: its event '${eventId}' is canceled, and its valid tickets are being canceled.` };
        await expect(callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: bo }, claims, options)).rejects.toMatchObject(refusal);
        await expect(retire(claims, 'refund', ticket.id)).rejects.toMatchObject({ ...refusal, message: expect.stringContaining('cannot be refunded: its event') });
        await expect(retire(claims, 'revoke', ticket.id)).rejects.toMatchObject({ ...refusal, message: expect.stringContaining('cannot be revoked: its event') });

        expect(await callUnary(tickets.getTicket.bind(tickets), { id: ticket.id }, claims, options)).toEqual(ticket);
        expect(await prisma.ticketChange.count({ where: { ticket_id: ticket.id } })).toBe(0);
      });

      it('refuses to refund, revoke, transfer or upgrade a canceled ticket, and holds no unit of the upgrade’s tier', async () => {
        const claims = tenant();
        const { eventId, tierId, ticket } = await oneTicket(claims);
        const vip = catalogSide.double.addTier(tenantOf(claims), { price: 9000, capacity: 5, rank: 2, eventId }).tierId;
        expect(await apply(eventCanceled(claims, eventId))).toBe(true);

        const refusal = { code: 'ticket_not_valid', status: 409, message: expect.stringContaining('is canceled') };
        await expect(retire(claims, 'refund', ticket.id)).rejects.toMatchObject(refusal);
        await expect(retire(claims, 'revoke', ticket.id)).rejects.toMatchObject(refusal);
        await expect(callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: bo }, claims, options)).rejects.toMatchObject(refusal);
        await expect(callUnary(tickets.upgradeTicket.bind(tickets), { id: ticket.id, tier_id: vip, payment: { reference: 'up', amount: 6500 }, payment_intent_id: '' }, claims, options)).rejects.toMatchObject(refusal);

        expect(await callUnary(tickets.getTicket.bind(tickets), { id: ticket.id }, claims, options)).toEqual({ ...ticket, status: 'canceled', updated_at: expect.any(String) });
        expect(await tierCounters(vip)).toEqual({ held: 0, sold: 0 });
        expect(await tierCounters(tierId)).toEqual({ held: 0, sold: 1 });
        expect(await prisma.ticketChange.findMany({ where: { ticket_id: ticket.id }, select: { kind: true } })).toEqual([{ kind: 'cancel' }]);
        expect((await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId)).map((message) => message.type)).toEqual(['ticket.issued', 'ticket.canceled']);
      });
    });
  });

  describe('delivery pages (decision 0035)', () => {
    /** Catalog's GetEvent as the page shows it: every event is the same night. */
    class OneNight extends CatalogInventory {
      override async eventFacts(): Promise<EventFacts> {
        return { name: 'Harbour Lights', startsAt: '2027-07-01T20:00:00.000Z', timeZone: 'Europe/Amsterdam', status: 'published', waitingRoom: { enabled: false, admissionRatePerMinute: 0 } };
      }
    }
    const links = new DeliveryLinks(tokenSecret, 'http://gateway.test');
    let pages: Server;

    beforeAll(async () => {
      pages = await startTicketPageServer(0, { prisma, catalog: new OneNight(catalogClients, options), links, logger });
    });

    afterAll(() => new Promise<void>((resolve) => pages.close(() => resolve())));

    /** Opens a link's page on the page server, at the path the gateway forwards to it. */
    const open = async (url: string, method = 'GET') => {
      const response = await fetch(`http://127.0.0.1:${(pages.address() as AddressInfo).port}${new URL(url).pathname}`, { method });
      return { status: response.status, cacheControl: response.headers.get('cache-control'), html: await response.text() };
    };
    const oneTicket = async (claims: InternalClaims) => {
      const { eventId, tierId } = await onSale(claims);
      return (await issue(claims, saleRequest(eventId, tierId, { quantity: 1, payment: { reference: 'o', amount: 2500 } }))).tickets[0]!;
    };
    const linkTo = (claims: InternalClaims, id: string) => callUnary(tickets.createDeliveryLink.bind(tickets), { id, ttl_seconds: 60 }, claims, options);
    /** What a page that shows no ticket must not show: its code, as text or as a QR code. */
    const ticketShown = (ticket: ticketingV1.Ticket) => [ticket.code, 'data-code', 'data-qr', '<svg'];

    it('answers an expired link 410 with a page that says so, and shows no ticket code, holder, event or QR code', async () => {
      const claims = tenant();
      const ticket = await oneTicket(claims);
      const current = await linkTo(claims, ticket.id);
      // A link made two minutes ago to last a minute (the shortest a link lives), made as the service makes them.
      const expired = await new CreateDeliveryLinkUseCase(prisma, links, () => new Date(Date.now() - 120_000)).execute(tenantOf(claims), { id: ticket.id, ttl_seconds: 60 });
      expect(expired.expiresAt.getTime()).toBeLessThan(Date.now());

      // The ticket's current link shows all that the expired one must not.
      const shown = await open(current.url);
      expect(shown.status).toBe(200);
      for (const text of [...ticketShown(ticket), 'Ann Lee', 'data-holder', 'Harbour Lights']) expect(shown.html).toContain(text);
      // 20:00 UTC, shown at the venue (Amsterdam, summer time).
      expect(shown.html).toContain('<p class="muted" data-starts-at>Thursday, 1 July 2027 at 22:00 CEST</p>');

      // Another method on a valid link: 405 naming the methods a link takes, not a page calling the link not valid.
      for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
        const response = await fetch(`http://127.0.0.1:${(pages.address() as AddressInfo).port}${new URL(current.url).pathname}`, { method });
        expect({ method, status: response.status, allow: response.headers.get('allow') }).toEqual({ method, status: 405, allow: 'GET, HEAD' });
        expect(await response.text()).toContain('This link opens in a browser');
      }

      // HEAD answers as GET, without the page: link checkers see a live link live and an expired one gone.
      expect(await open(current.url, 'HEAD')).toEqual({ status: 200, cacheControl: shown.cacheControl, html: '' });
      expect(await open(expired.url, 'HEAD')).toMatchObject({ status: 410, html: '' });
      // A path whose percent-encoding is broken is no link: refused, and the server keeps serving.
      expect((await open(`${current.url}%E0%A4%A`)).status).toBe(404);

      const refused = await open(expired.url);
      expect(refused).toMatchObject({ status: 410, cacheControl: 'no-store' });
      expect(refused.html).toContain('<h1 data-refused="expired">This link has expired</h1>');
      for (const text of [...ticketShown(ticket), 'Ann Lee', 'data-holder', 'Harbour Lights', ticket.id]) expect(refused.html).not.toContain(text);
    });

    it('shows a refunded or revoked ticket’s state through its link, never its code or QR code', async () => {
      const claims = tenant();
      for (const [how, status] of [['refund', 'refunded'], ['revoke', 'revoked']] as const) {
        const ticket = await oneTicket(claims);
        const { url } = await linkTo(claims, ticket.id);
        for (const text of ticketShown(ticket)) expect((await open(url)).html).toContain(text);

        if (how === 'refund') await callUnary(tickets.refundTicket.bind(tickets), { id: ticket.id, reason: '' }, claims, options);
        else await callUnary(tickets.revokeTicket.bind(tickets), { id: ticket.id, reason: 'Fraud' }, claims, options);

        const page = await open(url);
        expect(page).toMatchObject({ status: 200, cacheControl: 'no-store' });
        expect(page.html).toContain(`<p data-status="${status}">This ticket was ${status} and no longer admits anyone.</p>`);
        for (const text of ticketShown(ticket)) expect(page.html).not.toContain(text);
      }
    });

    it('ends a link when its ticket is transferred: the old holder sees neither the new holder nor the new code; a link made for the new holder shows both', async () => {
      const claims = tenant();
      const ticket = await oneTicket(claims);
      const { url: annsLink } = await linkTo(claims, ticket.id);
      const moved = await callUnary(tickets.transferTicket.bind(tickets), { id: ticket.id, customer: { reference: { $case: 'details', value: { email: 'bo@example.com', name: 'Bo Chen' } } } }, claims, options);

      const ended = await open(annsLink);
      expect(ended).toMatchObject({ status: 410, cacheControl: 'no-store' });
      expect(ended.html).toContain('<h1 data-refused="transferred">This ticket was transferred</h1>');
      for (const text of [...ticketShown(moved), ticket.code, 'Bo Chen', 'Ann Lee', 'data-holder']) expect(ended.html).not.toContain(text);

      const bosPage = await open((await linkTo(claims, ticket.id)).url);
      expect(bosPage.status).toBe(200);
      for (const text of [...ticketShown(moved), 'Bo Chen']) expect(bosPage.html).toContain(text);
    });

    it('says on a test-mode ticket’s page that it is not a real ticket, and on a live one says nothing of the kind', async () => {
      for (const mode of ['test', 'live'] as const) {
        const claims = tenant(mode);
        const { html } = await open((await linkTo(claims, (await oneTicket(claims)).id)).url);
        expect(html.includes('<p class="test" data-test-mode>Test mode: this is not a real ticket.</p>')).toBe(mode === 'test');
      }
    });
  });
});
