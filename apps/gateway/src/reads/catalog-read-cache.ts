import { LRUCache } from 'lru-cache';
import { Counter, type Registry } from 'prom-client';
import type { Tenant } from '@ticketing/auth';
import { CATALOG_READS_GENERATION_TTL_SECONDS, catalogReadsGenerationEntry, newCatalogReadsGeneration } from '@ticketing/contracts';
import { answeredWithin, type CachingRedisClient } from '@ticketing/redis';

/**
 * The longest an answer is kept, whatever its generation says: what bounds staleness when
 * catalog could not tell Redis of a write (Redis out of its reach, or catalog killed between a
 * commit and its announcement; decision 0051).
 */
const CATALOG_READ_MAX_AGE_MS = 5_000;
/** The most characters of kept answers, all tenants together (about 64 MB of strings at most). */
const MAX_KEPT_CHARACTERS = 32 * 1024 * 1024;
/** How long a read waits for Redis before it asks catalog instead: a cache never makes a read fail. */
const GENERATION_WAIT_MS = 1_000;

type Outcome = 'hit' | 'shared' | 'miss' | 'bypass';

interface Kept {
  generation: string;
  /** The answer as sent: kept serialized, so a hit costs no serialization either. */
  body: string;
}

/**
 * Catalog's answers to reads, kept serialized and served again while the tenant's catalog read
 * generation in Redis is the one read before catalog was asked (decision 0051). Catalog replaces
 * the generation after each write of the tenant and before answering it, so nothing older than
 * an acknowledged write is served. The generation is read through the client-side-caching Redis
 * connection the key cache uses: a hit costs no round trip, and Redis pushes the replacement to
 * this process before it acknowledges it to catalog. While that connection is down, every read
 * goes to catalog.
 */
export class CatalogReadCache {
  private readonly kept: LRUCache<string, Kept>;
  /** Reads asking catalog now, by tenant, name and generation: the readers of one generation share one call. */
  private readonly loading = new Map<string, Promise<string>>();
  private readonly reads: Counter<'outcome'>;

  constructor(
    private readonly redis: CachingRedisClient,
    registry: Registry,
    { maxAgeMs = CATALOG_READ_MAX_AGE_MS }: { maxAgeMs?: number } = {},
  ) {
    this.kept = new LRUCache<string, Kept>({ maxSize: MAX_KEPT_CHARACTERS, sizeCalculation: (kept) => kept.body.length + 1, ttl: maxAgeMs });
    this.reads = new Counter({
      name: 'gateway_catalog_read_cache_total',
      help: 'Catalog reads the gateway may keep, by outcome: hit (served as kept), shared (answered by a call another read of the same generation made), miss (asked catalog), bypass (asked catalog, Redis not answering).',
      labelNames: ['outcome'],
      registers: [registry],
    });
  }

  /** The tenant's answer named `what`, serialized: kept, or `load`'s. */
  async read(tenant: Tenant, what: string, load: () => Promise<unknown>): Promise<string> {
    const generation = await this.generation(tenant);
    if (generation === undefined) return this.loaded('bypass', load);
    if (generation === null) return this.loaded('miss', load);
    const id = `${tenant.accountId}:${tenant.mode}:${what}`;
    const kept = this.kept.get(id);
    if (kept?.generation === generation) {
      this.reads.inc({ outcome: 'hit' });
      return kept.body;
    }
    return this.loadShared(id, generation, load);
  }

  /**
   * One call to catalog for every reader that read the same generation while it runs (an
   * on-sale's buyers polling an event): each of them read the generation after every write it
   * must see was announced, and the call started after that announcement too, so its answer
   * shows everything any of them is owed.
   */
  private loadShared(id: string, generation: string, load: () => Promise<unknown>): Promise<string> {
    const flight = `${id}@${generation}`;
    const running = this.loading.get(flight);
    if (running !== undefined) {
      this.reads.inc({ outcome: 'shared' });
      return running;
    }
    const loaded = this.loaded('miss', load).then((body) => {
      this.kept.set(id, { generation, body });
      return body;
    });
    this.loading.set(flight, loaded);
    void loaded.finally(() => this.loading.delete(flight)).catch(() => undefined);
    return loaded;
  }

  private async loaded(outcome: Outcome, load: () => Promise<unknown>): Promise<string> {
    this.reads.inc({ outcome });
    return JSON.stringify(await load());
  }

  /**
   * The tenant's generation; null when it has none, which this read starts (catalog has not
   * written for the tenant lately, or Redis lost it), so nothing kept can match it; undefined
   * when Redis is not answering.
   */
  private async generation(tenant: Tenant): Promise<string | null | undefined> {
    if (!this.redis.isReady) return undefined;
    const entry = catalogReadsGenerationEntry(tenant.accountId, tenant.mode);
    try {
      const generation = await answeredWithin(this.redis.get(entry), GENERATION_WAIT_MS);
      if (generation === null) await answeredWithin(this.redis.set(entry, newCatalogReadsGeneration(), { NX: true, EX: CATALOG_READS_GENERATION_TTL_SECONDS }), GENERATION_WAIT_MS);
      return generation;
    } catch {
      return undefined;
    }
  }
}
