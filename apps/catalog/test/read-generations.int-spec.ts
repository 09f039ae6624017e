import type { InternalClaims } from '@ticketing/auth';
import { catalogReadsGenerationEntry, catalogV1 } from '@ticketing/contracts';
import { callUnary, createGrpcClient, type RunningGrpcServer, startGrpcServer } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { connectRedis } from '@ticketing/redis';
import { silenceableRedis, waitFor } from '@ticketing/testing';
import { catalogGrpcServices } from '../src/grpc/services';
import { CatalogReadGenerations } from '../src/reads/read-generations';
import { useCatalogDatabase } from './support/catalog-database';
import { createEventRequest, createTierRequest, updateEventRequest } from './support/requests';
import { useReadGenerations } from './support/read-generations';

const tokenSecret = 'catalog-test-secret-0123456789';
const options = { tokenSecret, deadlineMs: 10_000 };
const logger = createLogger('catalog-test', 'silent');

/** Decision 0051: every write catalog answers has replaced its tenant's read generation first; reads leave it be. */
describe('catalog read generations (real PostgreSQL, real gRPC, real Redis)', () => {
  const reads = useReadGenerations();
  const catalog = useCatalogDatabase();
  let server: RunningGrpcServer;
  let events: catalogV1.EventServiceClient;
  let tiers: catalogV1.TierServiceClient;

  beforeAll(async () => {
    server = await startGrpcServer(catalogGrpcServices(catalog.prisma, { tokenSecret, logger }, reads.generations), 0);
    events = createGrpcClient(catalogV1.EventServiceClient, `127.0.0.1:${server.port}`);
    tiers = createGrpcClient(catalogV1.TierServiceClient, `127.0.0.1:${server.port}`);
  });

  afterAll(async () => {
    events.close();
    tiers.close();
    await server.shutdown();
  });

  const tenant = (): InternalClaims => ({ request_id: 'req_test', tenant: { account_id: newId('acct'), mode: 'test' } });
  const generationOf = (claims: InternalClaims) => reads.redis.get(catalogReadsGenerationEntry(claims.tenant!.account_id, claims.tenant!.mode));

  it('is replaced by every write, answered or refused, and left be by reads, of its own tenant only', async () => {
    const claims = tenant();
    const other = tenant();
    expect(await generationOf(claims)).toBeNull();

    const event = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, options);
    const afterCreate = await generationOf(claims);
    expect(afterCreate).toEqual(expect.any(String));

    await callUnary(events.getEvent.bind(events), { id: event.id }, claims, options);
    await callUnary(tiers.listTiers.bind(tiers), { event_id: event.id, page: { limit: 10, starting_after: '' } }, claims, options);
    expect(await generationOf(claims)).toBe(afterCreate);

    await callUnary(tiers.createTier.bind(tiers), createTierRequest(event.id), claims, options);
    const afterTier = await generationOf(claims);
    expect(afterTier).not.toBe(afterCreate);

    // A refused write may have committed part of its work before failing: it is announced too.
    await expect(callUnary(events.updateEvent.bind(events), updateEventRequest(newId('evt'), { name: 'Nowhere' }), claims, options)).rejects.toMatchObject({ code: 'resource_missing' });
    expect(await generationOf(claims)).not.toBe(afterTier);

    expect(await generationOf(other)).toBeNull();
  });

  it('sends one replacement for the writes of a tenant that end in the same turn, and one more for a later write', async () => {
    const claims = tenant();
    const owner = { accountId: claims.tenant!.account_id, mode: claims.tenant!.mode };
    const set = jest.spyOn(reads.redis, 'set');
    try {
      await Promise.all(Array.from({ length: 50 }, () => reads.generations.changed(owner)));
      expect(set).toHaveBeenCalledTimes(1);
      const after = await generationOf(claims);
      await reads.generations.changed(owner);
      expect(set).toHaveBeenCalledTimes(2);
      expect(await generationOf(claims)).not.toBe(after);
    } finally {
      set.mockRestore();
    }
  });

  it('answers a write while Redis does not answer, and replaces the generation once Redis answers again', async () => {
    const proxy = await silenceableRedis();
    const redis = await connectRedis(proxy.url, logger);
    const generations = new CatalogReadGenerations(redis, logger);
    const claims = tenant();
    const tenantOf = { accountId: claims.tenant!.account_id, mode: claims.tenant!.mode };
    try {
      proxy.silence();
      const started = Date.now();
      await generations.changed(tenantOf);
      expect(Date.now() - started).toBeLessThan(5_000);
      // The command reached Redis, its answer did not: catalog cannot know it landed, so it tries again.
      const unconfirmed = await generationOf(claims);
      proxy.resume();
      await waitFor('the generation replaced after Redis answered again', async () => ((await generationOf(claims)) !== unconfirmed ? true : undefined));
    } finally {
      generations.stop();
      redis.destroy();
      await proxy.close();
    }
  }, 20_000);
});
