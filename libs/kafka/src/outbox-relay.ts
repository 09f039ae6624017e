import type { Producer } from 'kafkajs';
import { Pool } from 'pg';
import type { Logger } from '@ticketing/observability';

export interface OutboxRelayOptions {
  databaseUrl: string;
  producer: Producer;
  logger: Logger;
  /** Pause before each poll that follows an empty outbox (and before the first one). */
  pollIntervalMs: number;
  batchSize?: number;
}

/** Advisory-lock key of the relay; each service has its own database, so one key serves all. */
const RELAY_LOCK_KEY = 7_200_301;

interface OutboxRow {
  position: string;
  topic: string;
  message_key: string;
  payload: unknown;
}

/**
 * Publishes committed outbox rows to Kafka, oldest first, and marks them published in the same
 * transaction; a crash between publish and commit republishes, which consumers' inboxes absorb
 * (at least once). Of several replicas, one publishes at a time (a transaction-scoped advisory
 * lock), so one aggregate's events always reach Kafka in the order they were written; the
 * others take over when it dies.
 */
export class OutboxRelay {
  private readonly pool: Pool;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly options: OutboxRelayOptions) {
    this.pool = new Pool({ connectionString: options.databaseUrl, max: 2 });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Publishes whatever is committed now; used at shutdown and by tests. */
  async drain(): Promise<void> {
    while ((await this.publishBatch()) > 0);
  }

  /** Stops polling, publishes what is left, and releases the database pool. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await this.drain();
    await this.pool.end();
  }

  /** Waits one interval, then publishes until the outbox is empty; repeats until stopped. */
  private async run(): Promise<void> {
    while (this.running) {
      await this.pause();
      try {
        while (this.running && (await this.publishBatch()) > 0);
      } catch (error) {
        this.options.logger.error({ err: error }, 'outbox relay failed to publish; retrying');
      }
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.options.pollIntervalMs);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async publishBatch(): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: lock } = await client.query<{ acquired: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS acquired', [RELAY_LOCK_KEY]);
      if (!lock[0]?.acquired) {
        await client.query('ROLLBACK');
        return 0;
      }
      const { rows } = await client.query<OutboxRow>(
        `SELECT position, topic, message_key, payload FROM outbox_messages
          WHERE published_at IS NULL ORDER BY position LIMIT $1`,
        [this.options.batchSize ?? 100],
      );
      if (rows.length > 0) {
        await this.options.producer.sendBatch({
          acks: -1,
          topicMessages: groupByTopic(rows),
        });
        await client.query('UPDATE outbox_messages SET published_at = now() WHERE position = ANY($1::bigint[])', [rows.map((row) => row.position)]);
      }
      await client.query('COMMIT');
      return rows.length;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

function groupByTopic(rows: OutboxRow[]): Array<{ topic: string; messages: Array<{ key: string; value: string }> }> {
  const byTopic = new Map<string, Array<{ key: string; value: string }>>();
  for (const row of rows) {
    const messages = byTopic.get(row.topic) ?? [];
    messages.push({ key: row.message_key, value: JSON.stringify(row.payload) });
    byTopic.set(row.topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}
