import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { DEFAULT_POSTGRES_URL, defaultDatabaseName } from '@ticketing/config';
import { databaseUrl } from '@ticketing/db';

/** How often ticketing's database is asked which of the awaited issuances have their tickets. */
const POLL_EVERY_MS = 20;
/** An order whose tickets take longer than this has failed. */
const VISIBLE_TIMEOUT_MS = 60_000;

interface Waiter {
  visible: (at: number) => void;
  failed: (error: Error) => void;
}

/**
 * When each paid order's tickets became visible. Ticketing issues them after it consumes
 * `payment_intent.succeeded` (decision 0062), so no answer tells the buyer they exist, and a
 * buyer polling the API for its own would add its reads to the CPU the bench measures. One
 * reader instead asks ticketing's database every POLL_EVERY_MS which of the issuances awaited
 * have tickets, by their unique (issuance_id, position) index, so a poll costs the same however
 * many tickets the shared table holds; each waiter learns the instant that poll's answer came,
 * at most one interval after the commit.
 */
export class TicketsVisible {
  private readonly waiting = new Map<string, Waiter>();
  private stopped = false;
  private readonly polling: Promise<void>;

  private constructor(private readonly client: pg.Client) {
    this.polling = this.poll().catch((error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      for (const waiter of this.waiting.values()) waiter.failed(failure);
      this.waiting.clear();
    });
  }

  static async connect(): Promise<TicketsVisible> {
    const adminUrl = process.env.POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
    const client = new pg.Client({ connectionString: databaseUrl(adminUrl, defaultDatabaseName('ticketing')) });
    await client.connect();
    return new TicketsVisible(client);
  }

  /** The instant (`performance.now()`) of the first poll that saw the issuance's tickets. */
  when(issuanceId: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const timeout = setTimeout(() => {
        this.waiting.delete(issuanceId);
        reject(new Error(`tickets of ${issuanceId} not visible within ${VISIBLE_TIMEOUT_MS / 1000} s`));
      }, VISIBLE_TIMEOUT_MS);
      this.waiting.set(issuanceId, {
        visible: (at) => {
          clearTimeout(timeout);
          resolve(at);
        },
        failed: (error) => {
          clearTimeout(timeout);
          reject(error);
        },
      });
    });
  }

  async close(): Promise<void> {
    this.stopped = true;
    await this.polling;
    await this.client.end();
  }

  private async poll(): Promise<void> {
    while (!this.stopped) {
      const started = performance.now();
      if (this.waiting.size > 0) {
        const { rows } = await this.client.query<{ issuance_id: string }>('SELECT DISTINCT issuance_id FROM tickets WHERE issuance_id = ANY($1)', [[...this.waiting.keys()]]);
        const answered = performance.now();
        for (const { issuance_id: issuanceId } of rows) {
          this.waiting.get(issuanceId)?.visible(answered);
          this.waiting.delete(issuanceId);
        }
      }
      await sleep(Math.max(0, POLL_EVERY_MS - (performance.now() - started)));
    }
  }
}
