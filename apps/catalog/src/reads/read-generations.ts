import type { Tenant } from '@ticketing/auth';
import { CATALOG_READS_GENERATION_TTL_SECONDS, catalogReadsGenerationEntry, newCatalogReadsGeneration } from '@ticketing/contracts';
import type { Logger } from '@ticketing/observability';
import { answeredWithin, type RedisClient } from '@ticketing/redis';

/**
 * How long a write's answer waits for Redis to take the tenant's new generation. Redis answers
 * in about a millisecond; past this bound the write is answered anyway and the generation
 * replaced in the background, and readers' kept answers age out meanwhile (decision 0051).
 */
const ANSWER_WAIT_MS = 1_000;
/** The pause between attempts to replace the generations Redis did not take. */
const RETRY_INTERVAL_MS = 500;

/**
 * Tells the readers that keep catalog's answers (the gateway's read cache) that a tenant's
 * catalog changed, by replacing the tenant's read generation in Redis (decision 0051). Catalog
 * calls `changed` after each write commits and before it answers the write, so a client that
 * got a write's answer never reads an answer from before it. Catalog serves while Redis is down
 * (decision 0044): the generations it could not replace are retried until Redis takes them.
 */
export class CatalogReadGenerations {
  /** Replacements not sent yet, by entry: the writes of one tenant that end together share one. */
  private readonly next = new Map<string, Promise<void>>();
  /** Generation entries whose replacement Redis has not taken yet. */
  private readonly pending = new Set<string>();
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly logger: Logger,
  ) {}

  /**
   * Resolves once Redis took the tenant's new generation, or once that was left to the
   * background; never rejects. The writes of a tenant that call this in the same turn of the
   * event loop (an on-sale's answers) share one replacement, sent after all of them committed.
   */
  changed(tenant: Tenant): Promise<void> {
    const entry = catalogReadsGenerationEntry(tenant.accountId, tenant.mode);
    let replaced = this.next.get(entry);
    if (replaced === undefined) {
      replaced = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.next.delete(entry);
        return this.replaceOrRetry(entry);
      });
      this.next.set(entry, replaced);
    }
    return replaced;
  }

  /** Stops retrying; what is still pending is left to the readers' maximum age. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  private async replaceOrRetry(entry: string): Promise<void> {
    if (await this.replace(entry)) return;
    if (this.pending.size === 0) this.logger.warn('redis did not take a catalog read generation: retrying in the background; readers serve kept answers at most their maximum age meanwhile');
    this.pending.add(entry);
    this.scheduleRetry();
  }

  private async replace(entry: string): Promise<boolean> {
    if (!this.redis.isReady) return false;
    try {
      await answeredWithin(this.redis.set(entry, newCatalogReadsGeneration(), { EX: CATALOG_READS_GENERATION_TTL_SECONDS }), ANSWER_WAIT_MS);
      return true;
    } catch {
      return false;
    }
  }

  private scheduleRetry(): void {
    if (this.retry !== undefined || this.stopped) return;
    this.retry = setTimeout(() => void this.retryPending(), RETRY_INTERVAL_MS);
    this.retry.unref();
  }

  private async retryPending(): Promise<void> {
    this.retry = undefined;
    for (const entry of this.pending) {
      if (!(await this.replace(entry))) break;
      this.pending.delete(entry);
    }
    if (this.pending.size > 0) this.scheduleRetry();
    else this.logger.info('redis took every pending catalog read generation');
  }
}
