import type { Kafka, Producer, TopicMessages } from 'kafkajs';
import { Pool } from 'pg';
import type { Logger } from '@ticketing/observability';
import { backoffDelay, type Backoff } from '@ticketing/backoff';
import { startPeriodicSweep, type PeriodicSweep } from '@ticketing/db';
import { eventHeaders } from './message-headers';
import { addOutboxBacklogProbe, publishedMessages, publishFailures } from './metrics';
import { OutboxClaims, type ClaimedMessage } from './outbox-claims';
import { OutboxListener } from './outbox-listener';
import { isGoneFromThisHost, newRelayId } from './relay-identity';
import { ensureTopics } from './topics';

/** What the relay needs of a producer: it connects on demand, so a broker that is down at start-up only delays it. */
export type OutboxProducer = Pick<Producer, 'connect' | 'sendBatch'>;

export interface OutboxRelayOptions {
  databaseUrl: string;
  producer: OutboxProducer;
  logger: Logger;
  /**
   * Pause before each poll that follows an empty outbox (and before the first one). A commit
   * that writes outbox rows ends the pause at once (LISTEN/NOTIFY, outbox-listener.ts), so this
   * is only the safety net for a notification missed while the listener reconnects.
   */
  pollIntervalMs: number;
  /**
   * Whether to listen for commits (default true). Off, the relay only polls: for a database
   * reached through a pooler that does not keep sessions, where LISTEN cannot work.
   */
  listen?: boolean;
  /**
   * How long a commit's wake-up waits before claiming (default 10 ms), so the commits of a busy
   * moment leave as one claim, one send and one mark instead of one round each: an on-sale rush
   * commits hundreds of issuances a second, and a round costs five statements and a send.
   */
  lingerMs?: number;
  /**
   * The least time from the start of one round to the start of the next (default 100 ms). An idle
   * relay's first round leaves after the linger; under a steady stream of commits the rounds
   * space out to this, so each carries what the interval brought, instead of a round every
   * linger: during an on-sale most of a round's cost (its claim and mark statements, a produce
   * request, a fetch and an offset commit in every consumer group) is per round, not per message.
   */
  roundIntervalMs?: number;
  batchSize?: number;
  /**
   * How long a claim keeps other relays off its keys; longer than a send takes. A send that
   * outlasts it only lets another relay send the same rows again (duplicates, never reordering).
   */
  claimLeaseMs?: number;
  /** Pause after a failed round (broker or database down), doubling while failures last. */
  backoff?: Backoff;
  /** How long a published message stays in the outbox (default OUTBOX_RETENTION_MS, decision 0059). */
  retentionMs?: number;
}

/**
 * How long a published message stays in the outbox: three days, so that after an incident over a
 * weekend an operator can still publish a message again by clearing its `published_at`
 * (decision 0019); then it goes, or the outbox would keep every event a service ever published.
 */
export const OUTBOX_RETENTION_MS = 3 * 24 * 60 * 60 * 1000;
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;
/** Oldest messages looked at per pruning statement; each deletes at most this many rows. */
const PRUNE_BATCH = 1_000;

const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 30_000 };
const DEFAULT_LINGER_MS = 10;
const DEFAULT_ROUND_INTERVAL_MS = 100;
const DEFAULT_BATCH_SIZE = 100;

/**
 * Publishes committed outbox rows to Kafka, oldest first per key, at least once: claim (a short
 * transaction), send with acks from all in-sync replicas (no transaction or lock held), mark
 * published (another short statement). A crash after the send republishes the rows, which
 * consumers' inboxes absorb. Replicas share the work by key without reordering a key
 * (outbox-claims.ts, docs/decisions/0019).
 */
export class OutboxRelay {
  private readonly pool: Pool;
  private readonly claims: OutboxClaims;
  private readonly removeBacklogProbe: () => void;
  private readonly listener: OutboxListener | undefined;
  private running = false;
  private loop: Promise<void> | undefined;
  private pruning: PeriodicSweep | undefined;
  /** Ends the current pause (stop). */
  private endPause: (() => void) | undefined;
  /** Ends the current pause if a commit may end it (idle polling, not a backoff after failures). */
  private endPauseOnCommit: (() => void) | undefined;
  /** A commit was notified since the last poll began, so the next pause is skipped. */
  private committedSincePoll = false;

  constructor(private readonly options: OutboxRelayOptions) {
    this.pool = new Pool({ connectionString: options.databaseUrl, max: 2, application_name: 'outbox-relay' });
    // An idle client that loses its server (database restart) must not crash the process.
    this.pool.on('error', (error) => options.logger.warn({ err: error }, 'outbox relay lost an idle database connection'));
    this.claims = new OutboxClaims(this.pool, newRelayId());
    this.removeBacklogProbe = addOutboxBacklogProbe(() => this.claims.backlog());
    if (options.listen ?? true) this.listener = new OutboxListener(options.databaseUrl, () => this.onCommit(), options.logger);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.listener?.start();
    this.loop = this.run();
    this.pruning = startPeriodicSweep({
      what: 'published outbox messages past their retention',
      intervalMs: PRUNE_INTERVAL_MS,
      sweep: () => this.prunePublished(),
      logger: this.options.logger,
    });
  }

  /** Publishes whatever is committed now; used at shutdown and by tests. */
  async drain(): Promise<void> {
    while ((await this.publishBatch()) > 0);
  }

  /**
   * Deletes the messages published longer ago than the retention, oldest first, a batch at a
   * time until a batch finds none (not until one comes back short: a message held up unpublished
   * among the oldest makes every batch short by one), or until the relay stops, so a long first
   * sweep never holds up a shutdown. Replicas may prune at once; a row goes once.
   */
  private async prunePublished(): Promise<number> {
    const publishedBefore = new Date(Date.now() - (this.options.retentionMs ?? OUTBOX_RETENTION_MS));
    let pruned = 0;
    while (this.running) {
      const batch = await this.claims.prunePublished(publishedBefore, PRUNE_BATCH);
      if (batch === 0) break;
      pruned += batch;
    }
    return pruned;
  }

  /** Stops polling and pruning, publishes what is left, and releases the database pool. */
  async stop(): Promise<void> {
    this.running = false;
    this.endPause?.();
    await this.loop;
    await this.pruning?.stop();
    await this.listener?.stop();
    this.removeBacklogProbe();
    try {
      await this.drain();
    } finally {
      await this.pool.end();
    }
  }

  /**
   * Publishes until a claim comes back short (the outbox was drained when it ran; a commit since
   * then has woken the next round), then waits for a commit, plus the linger (stretched to the
   * round interval), or the poll interval; after a failure waits longer each time, and commits
   * do not cut that wait short.
   */
  private async run(): Promise<void> {
    await this.releaseClaimsOfGoneRelays();
    let failures = 0;
    let roundStartedAt = -Infinity;
    while (this.running) {
      if (failures === 0) {
        await this.pause(this.options.pollIntervalMs, { endsOnCommit: true });
        await this.pause(this.lingerAfterRoundAt(roundStartedAt), { endsOnCommit: false });
      } else {
        await this.pause(backoffDelay(failures, this.options.backoff ?? DEFAULT_BACKOFF), { endsOnCommit: false });
      }
      roundStartedAt = performance.now();
      this.committedSincePoll = false;
      try {
        while (this.running && (await this.publishBatch()) === this.batchSize);
        if (failures > 0) this.options.logger.info({ failures }, 'outbox relay publishing again');
        failures = 0;
      } catch (error) {
        failures += 1;
        publishFailures.inc();
        this.options.logger.error({ err: error, failures }, 'outbox relay failed to publish; backing off');
      }
    }
  }

  /**
   * A relay killed mid-round leaves its claims, which keep every relay off those keys until the
   * lease ends (a minute of `ticket.issued` published late after a kill, in a probe). The relay
   * that starts next on the same host, as a crashed container's restart does, takes them back
   * at once when their process is gone. Claims of relays elsewhere wait out their lease.
   */
  private async releaseClaimsOfGoneRelays(): Promise<void> {
    try {
      const gone = (await this.claims.claimants()).filter((claimant) => isGoneFromThisHost(claimant));
      if (gone.length === 0) return;
      const released = await this.claims.releaseClaimsOf(gone);
      this.options.logger.info({ relays: gone, messages: released }, 'outbox relay took back the claims of relays that are gone');
    } catch (error) {
      this.options.logger.warn({ err: error }, 'outbox relay could not look for claims of relays that are gone; their keys wait for the lease to end');
    }
  }

  /** The linger, or longer if the round that started at `previous` started less than a round interval ago. */
  private lingerAfterRoundAt(previous: number): number {
    const interval = this.options.roundIntervalMs ?? DEFAULT_ROUND_INTERVAL_MS;
    return Math.max(this.options.lingerMs ?? DEFAULT_LINGER_MS, previous + interval - performance.now());
  }

  private pause(ms: number, { endsOnCommit }: { endsOnCommit: boolean }): Promise<void> {
    if (!this.running || (endsOnCommit && this.committedSincePoll)) return Promise.resolve();
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.endPause = this.endPauseOnCommit = undefined;
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.endPause = end;
      this.endPauseOnCommit = endsOnCommit ? end : undefined;
    });
  }

  private onCommit(): void {
    this.committedSincePoll = true;
    this.endPauseOnCommit?.();
  }

  private get batchSize(): number {
    return this.options.batchSize ?? DEFAULT_BATCH_SIZE;
  }

  private async publishBatch(): Promise<number> {
    const messages = await this.claims.claim(this.batchSize, this.options.claimLeaseMs ?? 60_000);
    if (messages.length === 0) return 0;
    try {
      await this.options.producer.connect();
      await this.options.producer.sendBatch({ acks: -1, topicMessages: groupByTopic(messages) });
    } catch (error) {
      await this.claims.release(messages).catch(() => undefined);
      throw error;
    }
    await this.claims.markPublished(messages);
    for (const message of messages) publishedMessages.inc({ topic: message.topic });
    return messages.length;
  }
}

/**
 * Starts publishing a service's outbox: creates the topics it publishes to, then starts the
 * relay. The part of a service's start that needs Kafka; services run it in the background
 * (startInBackground, decision 0044), so they serve while Kafka is down and commits wait.
 */
export async function startPublishing(kafka: Kafka, topics: string[], relay: OutboxRelay): Promise<OutboxRelay> {
  await ensureTopics(kafka, topics);
  relay.start();
  return relay;
}

function groupByTopic(messages: ClaimedMessage[]): TopicMessages[] {
  const byTopic = new Map<string, TopicMessages['messages']>();
  for (const message of messages) {
    const topicMessages = byTopic.get(message.topic) ?? [];
    topicMessages.push({ key: message.message_key, value: JSON.stringify(message.payload), headers: eventHeaders(message.payload) });
    byTopic.set(message.topic, topicMessages);
  }
  return [...byTopic].map(([topic, topicMessages]) => ({ topic, messages: topicMessages }));
}
