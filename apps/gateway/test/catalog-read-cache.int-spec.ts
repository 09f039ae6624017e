import { Registry } from 'prom-client';
import { catalogReadsGenerationEntry, newCatalogReadsGeneration } from '@ticketing/contracts';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { connectCachingRedis, connectRedis, type RedisClient } from '@ticketing/redis';
import { waitFor } from '@ticketing/testing';
import { CatalogReadCache } from '../src/reads/catalog-read-cache';

const logger = createLogger('gateway-test', 'silent');

/** Decision 0051, the gateway's half: answers kept per tenant, served only while the tenant's generation is the one they were read under. */
describe('CatalogReadCache (real Redis)', () => {
  let writer: RedisClient;
  let caching: Awaited<ReturnType<typeof connectCachingRedis>>;
  let cache: CatalogReadCache;

  beforeAll(async () => {
    writer = await connectRedis('redis://127.0.0.1:6379', logger);
    caching = await connectCachingRedis('redis://127.0.0.1:6379', logger, 1_000);
    cache = new CatalogReadCache(caching.client, new Registry());
  });
  afterAll(async () => {
    await caching.client.close();
    await writer.close();
  });

  const tenant = () => ({ accountId: newId('acct'), mode: 'test' as const });
  /** A loader that answers its call count, so a test sees which reads reached catalog. */
  const counting = () => {
    let calls = 0;
    const load = async () => ({ calls: ++calls });
    return { load, calls: () => calls };
  };
  /**
   * What catalog does after a write of the tenant (CatalogReadGenerations), from another
   * connection; then what a client's next request finds in production, where Redis's
   * invalidation reached the gateway before catalog's answer could travel back through it to the
   * client and the client's next request come in (decision 0007): here, in one process, a PING
   * on the caching connection, which Redis answers after the invalidation it pushed there.
   */
  const catalogWrote = async (of: { accountId: string; mode: string }) => {
    await writer.set(catalogReadsGenerationEntry(of.accountId, of.mode), newCatalogReadsGeneration());
    await caching.client.ping();
  };

  it('asks catalog until the tenant has a generation, then serves the answer as kept until catalog writes for the tenant', async () => {
    const owner = tenant();
    const catalog = counting();
    expect(await cache.read(owner, 'event:1', catalog.load)).toBe('{"calls":1}');
    // The first read found no generation and started one; only reads under a generation are kept.
    expect(await caching.client.get(catalogReadsGenerationEntry(owner.accountId, owner.mode))).toEqual(expect.any(String));
    expect(await cache.read(owner, 'event:1', catalog.load)).toBe('{"calls":2}');
    expect(await cache.read(owner, 'event:1', catalog.load)).toBe('{"calls":2}');
    expect(await cache.read(owner, 'event:1', catalog.load)).toBe('{"calls":2}');

    await catalogWrote(owner);
    expect(await cache.read(owner, 'event:1', catalog.load)).toBe('{"calls":3}');
    expect(await cache.read(owner, 'event:1', catalog.load)).toBe('{"calls":3}');
    expect(catalog.calls()).toBe(3);
  });

  it('keeps answers apart by tenant and by name', async () => {
    const [first, second] = [tenant(), tenant()];
    await Promise.all([catalogWrote(first), catalogWrote(second)]);
    const answers = (name: string) => async () => ({ name });
    await cache.read(first, 'event:1', answers('first:event:1'));
    await cache.read(second, 'event:1', answers('second:event:1'));
    await cache.read(first, 'event:2', answers('first:event:2'));
    const none = async () => {
      throw new Error('kept answers should have served this');
    };
    expect(await cache.read(first, 'event:1', none)).toBe('{"name":"first:event:1"}');
    expect(await cache.read(second, 'event:1', none)).toBe('{"name":"second:event:1"}');
    expect(await cache.read(first, 'event:2', none)).toBe('{"name":"first:event:2"}');
    expect(await cache.read({ ...first, mode: 'live' }, 'event:1', answers('live'))).toBe('{"name":"live"}');

    await catalogWrote(first);
    expect(await cache.read(first, 'event:1', answers('first again'))).toBe('{"name":"first again"}');
    expect(await cache.read(second, 'event:1', none)).toBe('{"name":"second:event:1"}');
  });

  it('makes one call to catalog for the reads of one generation that arrive while it runs, and none of them waits for another generation', async () => {
    const registry = new Registry();
    const shared = new CatalogReadCache(caching.client, registry);
    const owner = tenant();
    await catalogWrote(owner);
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const catalog = counting();
    const slowLoad = async () => {
      const result = await catalog.load();
      await answered;
      return result;
    };
    const reads = Array.from({ length: 20 }, () => shared.read(owner, 'event:1', slowLoad));
    await waitFor('the other 19 reads to join the first one’s call', async () =>
      (await registry.getSingleMetricAsString('gateway_catalog_read_cache_total')).includes('gateway_catalog_read_cache_total{outcome="shared"} 19') ? true : undefined,
    );
    await catalogWrote(owner);
    // A read of the new generation does not join the call made under the old one.
    expect(await shared.read(owner, 'event:1', catalog.load)).toBe('{"calls":2}');
    answer();
    expect(new Set(await Promise.all(reads))).toEqual(new Set(['{"calls":1}']));
    expect(catalog.calls()).toBe(2);
  });

  it('asks catalog again once an answer is older than its maximum age, though no write replaced the generation (a write Redis never heard of)', async () => {
    const shortLived = new CatalogReadCache(caching.client, new Registry(), { maxAgeMs: 1_000 });
    const owner = tenant();
    await catalogWrote(owner);
    const catalog = counting();
    await shortLived.read(owner, 'event:1', catalog.load);
    expect(await shortLived.read(owner, 'event:1', catalog.load)).toBe('{"calls":1}');
    await waitFor('the kept answer to age out', async () => ((await shortLived.read(owner, 'event:1', catalog.load)) === '{"calls":2}' ? true : undefined), { intervalMs: 50 });
  });

  it('keeps nothing from a read that failed', async () => {
    const owner = tenant();
    await catalogWrote(owner);
    await expect(cache.read(owner, 'event:1', async () => Promise.reject(new Error('no such event')))).rejects.toThrow('no such event');
    expect(await cache.read(owner, 'event:1', async () => ({ found: true }))).toBe('{"found":true}');
  });

  it('asks catalog every time while its Redis connection is down', async () => {
    const down = await connectCachingRedis('redis://127.0.0.1:6379', logger, 1_000);
    const registry = new Registry();
    const offline = new CatalogReadCache(down.client, registry);
    const owner = tenant();
    await catalogWrote(owner);
    await down.client.close();
    const catalog = counting();
    await offline.read(owner, 'event:1', catalog.load);
    await offline.read(owner, 'event:1', catalog.load);
    expect(catalog.calls()).toBe(2);
    expect(await registry.getSingleMetricAsString('gateway_catalog_read_cache_total')).toContain('gateway_catalog_read_cache_total{outcome="bypass"} 2');
  });
});
