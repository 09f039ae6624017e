import path from 'node:path';
import type { InternalClaims } from '@ticketing/auth';
import { catalogV1 } from '@ticketing/contracts';
import { callUnary, createGrpcClient, type CallerOptions, type RunningGrpcServer, startGrpcServer } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createCatalogPrisma, type PrismaClient } from '../src/db';
import { catalogGrpcServices } from '../src/grpc/services';
import { createEventRequest } from './support/requests';
import { useReadGenerations } from './support/read-generations';

const tokenSecret = 'catalog-test-secret-0123456789';

/**
 * Writes under an Idempotency-Key record their result in the write's own transaction
 * (libs/db idempotentWrites), so a retry gets the committed result instead of a second write.
 */
describe('idempotent writes in catalog (real PostgreSQL, real gRPC)', () => {
  const reads = useReadGenerations();
  let database: TestDatabase;
  let prisma: PrismaClient;
  let server: RunningGrpcServer;
  let events: catalogV1.EventServiceClient;
  let organizations: catalogV1.OrganizationServiceClient;

  beforeAll(async () => {
    database = await createTestDatabase('catalog', path.join(__dirname, '../prisma/migrations'));
    prisma = createCatalogPrisma(database.url);
    server = await startGrpcServer(catalogGrpcServices(prisma, { tokenSecret, logger: createLogger('catalog-test', 'silent') }, reads.generations), 0);
    events = createGrpcClient(catalogV1.EventServiceClient, `127.0.0.1:${server.port}`);
    organizations = createGrpcClient(catalogV1.OrganizationServiceClient, `127.0.0.1:${server.port}`);
  });

  afterAll(async () => {
    events.close();
    organizations.close();
    await server.shutdown();
    await prisma.$disconnect();
    await database.drop();
  });

  const tenant = (): InternalClaims => ({ request_id: 'req_test', tenant: { account_id: newId('acct'), mode: 'test' } });

  /** Calls createEvent under `key`, telling whether catalog answered from its record. */
  const createEvent = async (claims: InternalClaims, key: string, request = createEventRequest(), fingerprint = 'fingerprint-a') => {
    let replayed = false;
    const options: CallerOptions = { tokenSecret, deadlineMs: 10_000, idempotency: { key, fingerprint, onReplayed: () => (replayed = true) } };
    const event = await callUnary(events.createEvent.bind(events), request, claims, options);
    return { event, replayed };
  };
  const eventsOf = (claims: InternalClaims) => prisma.event.count({ where: { account_id: claims.tenant!.account_id } });

  it('answers a retry with the committed event, marked as replayed, and writes it once', async () => {
    const claims = tenant();
    const first = await createEvent(claims, 'key-1');
    const retry = await createEvent(claims, 'key-1');
    expect(first.replayed).toBe(false);
    expect(retry).toEqual({ event: first.event, replayed: true });
    expect(await eventsOf(claims)).toBe(1);
    expect(await prisma.outboxMessage.count({ where: { message_key: first.event.id } })).toBe(1);
  });

  it('writes once when duplicates arrive together: the others wait for the first commit and replay it', async () => {
    const claims = tenant();
    const results = await Promise.all(Array.from({ length: 5 }, () => createEvent(claims, 'key-concurrent')));
    expect(new Set(results.map((result) => result.event.id)).size).toBe(1);
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect(await eventsOf(claims)).toBe(1);
  });

  it('refuses the key with another request, and keeps keys apart per tenant and per RPC', async () => {
    const claims = tenant();
    const first = await createEvent(claims, 'key-2');
    await expect(createEvent(claims, 'key-2', createEventRequest({ name: 'Other' }), 'fingerprint-b')).rejects.toMatchObject({ code: 'idempotency_key_reused', status: 409 });
    const other = tenant();
    expect((await createEvent(other, 'key-2')).event.id).not.toBe(first.event.id);
    const organization = await callUnary(organizations.createOrganization.bind(organizations), { name: 'Same key', description: '', website: '', contact_email: '' }, claims, {
      tokenSecret,
      deadlineMs: 10_000,
      idempotency: { key: 'key-2', fingerprint: 'fingerprint-a', onReplayed: () => undefined },
    });
    expect(organization.name).toBe('Same key');
  });

  it('records nothing for a refused write, so the retry runs', async () => {
    const claims = tenant();
    await expect(createEvent(claims, 'key-3', createEventRequest({ organization_id: newId('org') }))).rejects.toMatchObject({ code: 'resource_missing' });
    expect(await prisma.idempotencyKey.count({ where: { account_id: claims.tenant!.account_id } })).toBe(0);
  });

  it('stores neither the key nor the result in the clear', async () => {
    const claims = tenant();
    await createEvent(claims, 'key-in-the-clear', createEventRequest({ name: 'Plaintext Festival' }));
    const [record] = await prisma.idempotencyKey.findMany({ where: { account_id: claims.tenant!.account_id } });
    expect(record!.key_hash).not.toContain('key-in-the-clear');
    expect(Buffer.from(record!.result!).toString('latin1')).not.toContain('Plaintext Festival');
  });

  it('writes as before for calls without a key', async () => {
    const claims = tenant();
    await callUnary(events.createEvent.bind(events), createEventRequest(), claims, { tokenSecret, deadlineMs: 10_000 });
    await callUnary(events.createEvent.bind(events), createEventRequest(), claims, { tokenSecret, deadlineMs: 10_000 });
    expect(await eventsOf(claims)).toBe(2);
    expect(await prisma.idempotencyKey.count({ where: { account_id: claims.tenant!.account_id } })).toBe(0);
  });
});
