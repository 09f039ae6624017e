import path from 'node:path';
import { credentials, Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { catalogV1 } from '@ticketing/contracts';
import { callUnary, implementService, INTERNAL_TOKEN_METADATA, startGrpcServer, type RunningGrpcServer } from '@ticketing/grpc';
import { signInternalToken, type InternalClaims } from '@ticketing/auth';
import { createLogger } from '@ticketing/observability';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createCatalogPrisma, type PrismaClient } from '../src/db';
import { eventGrpcHandlers } from '../src/grpc/event.grpc';
import { createEventRequest, listEventsRequest, updateEventRequest } from './support/requests';

const tokenSecret = 'catalog-test-secret-0123456789';

describe('catalog EventService (real PostgreSQL, real gRPC)', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;
  let server: RunningGrpcServer;
  let client: catalogV1.EventServiceClient;

  beforeAll(async () => {
    database = await createTestDatabase('catalog', path.join(__dirname, '../prisma/migrations'));
    prisma = createCatalogPrisma(database.url);
    const implementation = implementService<catalogV1.EventServiceServer>(eventGrpcHandlers(prisma), {
      tokenSecret,
      logger: createLogger('catalog-test', 'silent'),
    });
    server = await startGrpcServer([{ definition: catalogV1.EventServiceService, implementation }], 0);
    client = new catalogV1.EventServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
  });

  afterAll(async () => {
    client.close();
    await server.shutdown();
    await prisma.$disconnect();
    await database.drop();
  });

  const claimsFor = (accountId: string, mode: 'test' | 'live'): InternalClaims => ({ request_id: 'req_test', tenant: { account_id: accountId, mode } });
  const options = { tokenSecret, deadlineMs: 5_000 };

  it('writes the event and its outbox message in one transaction', async () => {
    const event = await callUnary(client.createEvent.bind(client), createEventRequest(), claimsFor('acct_1', 'test'), options);
    expect(event).toMatchObject({ name: 'Dockside', livemode: false, starts_at: '2027-04-01T18:00:00.000Z' });
    const outbox = await prisma.outboxMessage.findMany({ where: { message_key: event.id } });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.topic).toBe('catalog.event.v1');
    expect(outbox[0]!.payload).toMatchObject({ type: 'event.created', account_id: 'acct_1', mode: 'test', data: { event_id: event.id, name: 'Dockside' } });
  });

  it('writes nothing when the input is invalid', async () => {
    const before = await prisma.outboxMessage.count();
    await expect(callUnary(client.createEvent.bind(client), createEventRequest({ name: '  ' }), claimsFor('acct_1', 'test'), options)).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'name',
    });
    expect(await prisma.outboxMessage.count()).toBe(before);
    expect(await prisma.event.count({ where: { name: '  ' } })).toBe(0);
  });

  it('scopes every read and write by account and mode', async () => {
    const event = await callUnary(client.createEvent.bind(client), createEventRequest({ name: 'Live only', starts_at: '2027-04-02T18:00:00Z' }), claimsFor('acct_2', 'live'), options);
    for (const claims of [claimsFor('acct_2', 'test'), claimsFor('acct_3', 'live')]) {
      await expect(callUnary(client.getEvent.bind(client), { id: event.id }, claims, options)).rejects.toMatchObject({ code: 'resource_missing', status: 404 });
      await expect(callUnary(client.updateEvent.bind(client), updateEventRequest(event.id, { name: 'x' }), claims, options)).rejects.toMatchObject({ code: 'resource_missing' });
      expect((await callUnary(client.listEvents.bind(client), listEventsRequest(), claims, options)).data.map((e) => e.id)).not.toContain(event.id);
    }
  });

  it('refuses calls without a valid gateway-signed token', async () => {
    const call = (metadata: Metadata) =>
      new Promise<unknown>((resolve, reject) => client.getEvent({ id: 'evt_x' }, metadata, (error, response) => (error ? reject(error) : resolve(response))));
    await expect(call(new Metadata())).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
    const forged = new Metadata();
    forged.set(INTERNAL_TOKEN_METADATA, signInternalToken(claimsFor('acct_1', 'test'), 'some-other-secret-0123456789'));
    await expect(call(forged)).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
    const withoutTenant = new Metadata();
    withoutTenant.set(INTERNAL_TOKEN_METADATA, signInternalToken({}, tokenSecret));
    await expect(call(withoutTenant)).rejects.toMatchObject({ code: GrpcStatus.UNAUTHENTICATED });
  });
});
