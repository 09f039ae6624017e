import { randomUUID } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';
import { hostname } from 'node:os';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import pino from 'pino';
import type { Client } from 'pg';
import { z } from 'zod';
import { defineTopic } from '@ticketing/contracts';
import { createLogger } from '@ticketing/observability';
import { waitFor } from '@ticketing/testing';
import { createProducer } from './client';
import { recordFirstDelivery } from './inbox';
import { enqueueEvent } from './outbox';
import { oldestUnpublishedAge, unpublishedMessages } from './metrics';
import { OutboxRelay, type OutboxProducer } from './outbox-relay';
import { createKafkaTestDatabase, createTestKafka, rawSqlClient, TEST_BROKERS, type KafkaTestDatabase } from '../test/support/kafka-test-setup';
import { ensureTopics } from './topics';

const logger = createLogger('outbox-relay-test', 'silent');

describe('outbox relay and inbox against real PostgreSQL and Kafka', () => {
  const topic = defineTopic(`test.outbox.${randomUUID()}`, { 'thing.happened': z.object({ n: z.number() }) });
  const tenant = { accountId: 'acct_test', mode: 'test' as const };
  let database: KafkaTestDatabase;
  let db: Client;
  let url: string;
  let kafka: Kafka;

  beforeAll(async () => {
    database = await createKafkaTestDatabase();
    ({ db, url } = database);
    kafka = createTestKafka('outbox-relay-test', logger);
    await ensureTopics(kafka, [topic.name]);
  });

  afterAll(() => database.drop());

  const enqueue = (aggregateId: string, n: number) => enqueueEvent(rawSqlClient(db), { topic, type: 'thing.happened', aggregateId, tenant, data: { n } });
  const publishedAt = async (id: string) => (await db.query<{ published_at: Date | null }>('SELECT published_at FROM outbox_messages WHERE id = $1', [id])).rows[0]!.published_at;

  /** Everything on the test topic from now on, as it arrives. */
  async function readTopic(): Promise<{ received: Array<{ id: string; key: string }>; stop(): Promise<void> }> {
    const received: Array<{ id: string; key: string }> = [];
    const consumer = kafka.consumer({ groupId: `outbox-test-reader-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: topic.name, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        received.push({ id: JSON.parse(message.value!.toString()).id, key: message.key!.toString() });
      },
    });
    return { received, stop: () => consumer.disconnect() };
  }

  it('publishes every committed message exactly once across two relay replicas, oldest first per key', async () => {
    const executor = rawSqlClient(db);
    const enqueued: string[] = [];
    for (let n = 0; n < 60; n += 1) {
      const envelope = await enqueueEvent(executor, { topic, type: 'thing.happened', aggregateId: `agg_${n % 3}`, tenant, data: { n } });
      enqueued.push(envelope.id);
    }

    const received: Array<{ id: string; key: string; n: number }> = [];
    const consumer = kafka.consumer({ groupId: `outbox-test-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: topic.name, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const envelope = JSON.parse(message.value!.toString());
        received.push({ id: envelope.id, key: message.key!.toString(), n: envelope.data.n });
      },
    });

    const producer = createProducer(kafka);
    await producer.connect();
    const relays = [1, 2].map(() => new OutboxRelay({ databaseUrl: url, producer, logger, pollIntervalMs: 20, batchSize: 7 }));
    relays.forEach((relay) => relay.start());
    try {
      await waitFor('all messages to arrive', async () => (received.length >= enqueued.length ? true : undefined));
      const { rows } = await db.query('SELECT count(*)::int AS unpublished FROM outbox_messages WHERE published_at IS NULL');
      expect(rows[0].unpublished).toBe(0);
    } finally {
      await Promise.all(relays.map((relay) => relay.stop()));
      await producer.disconnect();
      await consumer.disconnect();
    }

    expect(received.map((message) => message.id).sort()).toEqual([...enqueued].sort());
    for (const key of ['agg_0', 'agg_1', 'agg_2']) {
      const order = received.filter((message) => message.key === key).map((message) => message.n);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
  });

  it('deletes the messages published longer ago than the retention, past one held up unpublished among the oldest, and keeps the recent ones', async () => {
    const count = async (where: string) => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_messages WHERE ${where}`)).rows[0]!.n;
    // Oldest first: one still unpublished, its key claimed by a live relay elsewhere; 2,500 published four days ago; 10 a minute ago.
    await db.query(
      `INSERT INTO outbox_messages (id, topic, message_key, payload, created_at, claimed_by, claimed_until)
       VALUES ('held_up', $1, 'held', '{}', now() - interval '5 days', 'relay-elsewhere', now() + interval '1 hour')`,
      [topic.name],
    );
    await db.query(
      `INSERT INTO outbox_messages (id, topic, message_key, payload, created_at, published_at)
       SELECT 'old_' || g, $1, 'old', '{}', now() - interval '5 days', now() - interval '4 days' FROM generate_series(1, 2500) g`,
      [topic.name],
    );
    await db.query(`INSERT INTO outbox_messages (id, topic, message_key, payload, published_at) SELECT 'recent_' || g, $1, 'recent', '{}', now() - interval '1 minute' FROM generate_series(1, 10) g`, [
      topic.name,
    ]);
    const producer = createProducer(kafka);
    const relay = new OutboxRelay({ databaseUrl: url, producer, logger, pollIntervalMs: 600_000, retentionMs: 3 * 24 * 60 * 60 * 1000 });
    relay.start();
    try {
      await waitFor('the messages published four days ago to go', async () => ((await count(`id LIKE 'old\\_%'`)) === 0 ? true : undefined));
      expect(await count(`id = 'held_up'`)).toBe(1);
      expect(await count(`id LIKE 'recent\\_%'`)).toBe(10);
    } finally {
      await relay.stop();
      await producer.disconnect();
      await db.query(`DELETE FROM outbox_messages WHERE id = 'held_up' OR id LIKE 'recent\\_%'`);
    }
  });

  it('records a message for a consumer only once', async () => {
    const executor = rawSqlClient(db);
    expect(await recordFirstDelivery(executor, 'billing', 'msg_1')).toBe(true);
    expect(await recordFirstDelivery(executor, 'billing', 'msg_1')).toBe(false);
    expect(await recordFirstDelivery(executor, 'reporting', 'msg_1')).toBe(true);
  });

  /** A producer whose sends wait at a gate the test opens, so the test can look around mid-send. */
  function gatedProducer(producer: Producer): { producer: OutboxProducer; sending: Promise<void>; open(): void } {
    let open!: () => void;
    let entered!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const sending = new Promise<void>((resolve) => (entered = resolve));
    return {
      producer: {
        connect: () => producer.connect(),
        sendBatch: async (batch) => {
          entered();
          await opened;
          return producer.sendBatch(batch);
        },
      },
      sending,
      open,
    };
  }

  it('holds no transaction, row lock or advisory lock while Kafka takes the messages', async () => {
    const producer = createProducer(kafka);
    const gate = gatedProducer(producer);
    const relay = new OutboxRelay({ databaseUrl: url, producer: gate.producer, logger, pollIntervalMs: 20 });
    const message = await enqueue(`agg_${randomUUID()}`, 1);
    relay.start();
    try {
      await gate.sending;
      const { rows: transactions } = await db.query(
        `SELECT pid, state FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL`,
      );
      expect(transactions).toEqual([]);
      const { rows: advisoryLocks } = await db.query(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      expect(advisoryLocks).toEqual([]);
      // A writer touching the very row being sent is not made to wait.
      await db.query('BEGIN');
      await db.query(`SET LOCAL lock_timeout = '1s'`);
      await db.query('UPDATE outbox_messages SET payload = payload WHERE id = $1', [message.id]);
      await db.query('ROLLBACK');
    } finally {
      gate.open();
      await relay.stop();
      await producer.disconnect();
    }
    expect(await publishedAt(message.id)).not.toBeNull();
  });

  it('leaves a key to the relay sending it while another relay publishes the other keys, so the key stays in order', async () => {
    const reader = await readTopic();
    const producer = createProducer(kafka);
    const gate = gatedProducer(producer);
    const slow = new OutboxRelay({ databaseUrl: url, producer: gate.producer, logger, pollIntervalMs: 20 });
    const fast = new OutboxRelay({ databaseUrl: url, producer, logger, pollIntervalMs: 20 });
    const [busyKey, otherKey] = [`agg_${randomUUID()}`, `agg_${randomUUID()}`];
    const first = await enqueue(busyKey, 1);
    slow.start();
    try {
      await gate.sending;
      const second = await enqueue(busyKey, 2);
      const other = await enqueue(otherKey, 3);
      fast.start();
      await waitFor('the other key to be published', async () => ((await publishedAt(other.id)) ? true : undefined));
      expect(await publishedAt(second.id)).toBeNull();

      gate.open();
      await waitFor('the busy key to be published', async () => ((await publishedAt(second.id)) ? true : undefined));
      await waitFor('the reader to see both', async () => (reader.received.filter((message) => message.key === busyKey).length >= 2 ? true : undefined));
      expect(reader.received.filter((message) => message.key === busyKey).map((message) => message.id)).toEqual([first.id, second.id]);
    } finally {
      gate.open();
      await Promise.all([slow.stop(), fast.stop()]);
      await producer.disconnect();
      await reader.stop();
    }
  });

  it('takes back at start the keys a relay of this host that is gone still claims, and leaves a live relay’s to its lease', async () => {
    const producer = createProducer(kafka);
    const relay = new OutboxRelay({ databaseUrl: url, producer, logger, pollIntervalMs: 20 });
    const [leftByKilled, heldByLive] = [await enqueue(`agg_${randomUUID()}`, 1), await enqueue(`agg_${randomUUID()}`, 2)];
    // As a relay killed between its claim and its mark leaves them; a pid above pid_max has no process.
    const claimAs = (claimant: string, id: string) => db.query(`UPDATE outbox_messages SET claimed_by = $1, claimed_until = now() + interval '60 seconds' WHERE id = $2`, [claimant, id]);
    await claimAs(`${hostname()}/2147483647/0a1b2c3d`, leftByKilled.id);
    await claimAs(`${hostname()}/${process.ppid}/0a1b2c3d`, heldByLive.id);
    relay.start();
    try {
      await waitFor('the message the gone relay claimed to be published', async () => ((await publishedAt(leftByKilled.id)) ? true : undefined), { timeoutMs: 5_000 });
      expect(await publishedAt(heldByLive.id)).toBeNull();
    } finally {
      await db.query(`UPDATE outbox_messages SET claimed_by = NULL, claimed_until = NULL WHERE id = $1`, [heldByLive.id]);
      await relay.stop();
      await producer.disconnect();
    }
  });

  describe('woken by commits (LISTEN/NOTIFY)', () => {
    /** The relays' listening connections to this test's database. */
    const listeners = async () =>
      (await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'outbox-listener'`)).rows.map((row) => row.pid);
    let producer: Producer;
    beforeAll(() => {
      producer = createProducer(kafka);
    });
    afterAll(() => producer.disconnect());
    // Ten minutes between polls: anything published within the test was woken by its commit.
    const sleepyRelay = () => new OutboxRelay({ databaseUrl: url, producer, logger, pollIntervalMs: 600_000 });
    const published = (id: string) => waitFor(`message ${id} to be published`, async () => ((await publishedAt(id)) ? true : undefined), { timeoutMs: 10_000 });
    /** The producer, counting the messages of each send. */
    const countingSends = () => {
      const sends: number[] = [];
      const counting: OutboxProducer = {
        connect: () => producer.connect(),
        sendBatch: (batch) => {
          sends.push(batch.topicMessages!.reduce((count, { messages }) => count + messages.length, 0));
          return producer.sendBatch(batch);
        },
      };
      return { sends, counting };
    };

    it('publishes a committed message at once instead of at its next poll', async () => {
      const relay = sleepyRelay();
      relay.start();
      try {
        await waitFor('the relay to listen', async () => ((await listeners()).length === 1 ? true : undefined));
        const message = await enqueue(`agg_${randomUUID()}`, 1);
        await published(message.id);
      } finally {
        await relay.stop();
      }
      expect(await listeners()).toEqual([]);
    });

    it('lingers after a commit, so the commits of a busy moment leave in one send', async () => {
      const { sends, counting } = countingSends();
      const relay = new OutboxRelay({ databaseUrl: url, producer: counting, logger, pollIntervalMs: 600_000, lingerMs: 500 });
      relay.start();
      try {
        await waitFor('the relay to listen', async () => ((await listeners()).length === 1 ? true : undefined));
        const messages = [];
        // Twenty commits, each waking the relay: without the linger, the first wake-up sends alone.
        for (let n = 0; n < 20; n += 1) messages.push(await enqueue(`agg_${randomUUID()}`, n));
        for (const message of messages) await published(message.id);
      } finally {
        await relay.stop();
      }
      expect(sends.reduce((sum, count) => sum + count, 0)).toBe(20);
      expect(sends.length).toBeLessThanOrEqual(2);
    });

    it('spaces its rounds under a stream of commits, so each round carries what the interval brought', async () => {
      const { sends, counting } = countingSends();
      const relay = new OutboxRelay({ databaseUrl: url, producer: counting, logger, pollIntervalMs: 600_000, lingerMs: 0, roundIntervalMs: 3_000 });
      relay.start();
      try {
        await waitFor('the relay to listen', async () => ((await listeners()).length === 1 ? true : undefined));
        const first = await enqueue(`agg_${randomUUID()}`, 0);
        await published(first.id);
        // Ten commits one after another, each waking the relay, all within one round interval of the first send.
        const messages = [];
        for (let n = 1; n <= 10; n += 1) messages.push(await enqueue(`agg_${randomUUID()}`, n));
        for (const message of messages) await published(message.id);
      } finally {
        await relay.stop();
      }
      // The idle relay's first commit went alone, at once; the stream's commits waited for the interval and left together.
      expect(sends).toEqual([1, 10]);
    });

    it('listens again after losing its connection', async () => {
      const relay = sleepyRelay();
      relay.start();
      try {
        const [first] = await waitFor('the relay to listen', async () => ((await listeners()).length === 1 ? listeners() : undefined));
        await db.query('SELECT pg_terminate_backend($1)', [first]);
        await waitFor('the relay to listen again', async () => ((await listeners()).some((pid) => pid !== first) ? true : undefined));
        const message = await enqueue(`agg_${randomUUID()}`, 2);
        await published(message.id);
      } finally {
        await relay.stop();
      }
    });
  });

  it('backs off while the broker is unreachable, reports its lag, and publishes once the broker is back', async () => {
    const failures: number[] = [];
    const relayLogger = pino({ level: 'error' }, { write: (line: string) => void (JSON.parse(line).failures && failures.push(Date.now())) });
    // A broker address nothing listens on yet; later a proxy to the real broker opens there.
    const port = await freePort();
    const unreachable = new Kafka({ clientId: 'outbox-relay-test-down', brokers: [`127.0.0.1:${port}`], retry: { retries: 1, initialRetryTime: 20 }, logLevel: logLevel.NOTHING });
    const producer = createProducer(unreachable);
    const relay = new OutboxRelay({ databaseUrl: url, producer, logger: relayLogger, pollIntervalMs: 10, backoff: { initialMs: 400, maxMs: 1_600 } });
    const message = await enqueue(`agg_${randomUUID()}`, 1);
    relay.start();
    let proxy: Server | undefined;
    try {
      await waitFor('four failed rounds', async () => (failures.length >= 4 ? true : undefined));
      // Without backoff four rounds take a few tens of milliseconds; with it at least 200 + 400 + 800.
      expect(failures[3]! - failures[0]!).toBeGreaterThanOrEqual(1_300);
      expect(await publishedAt(message.id)).toBeNull();
      const { rows } = await db.query('SELECT claimed_by FROM outbox_messages WHERE id = $1', [message.id]);
      expect(rows[0].claimed_by).toBeNull();
      expect((await oldestUnpublishedAge.get()).values[0]?.value).toBeGreaterThanOrEqual(1);

      proxy = await forwardTo(port, TEST_BROKERS[0]!);
      await waitFor('the relay to publish', async () => ((await publishedAt(message.id)) ? true : undefined), { timeoutMs: 60_000 });
      expect((await unpublishedMessages.get()).values[0]?.value).toBe(0);
      expect((await oldestUnpublishedAge.get()).values[0]?.value).toBe(0);
    } finally {
      await relay.stop();
      await producer.disconnect();
      proxy?.close();
    }
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP proxy on `port` to `target` ("host:port"): the broker coming back where the relay looks for it. */
async function forwardTo(port: number, target: string): Promise<Server> {
  const [host, targetPort] = target.split(':');
  const server = createServer((client) => {
    const upstream = connect(Number(targetPort), host);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
