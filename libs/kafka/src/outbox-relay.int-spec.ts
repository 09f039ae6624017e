import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { Kafka } from 'kafkajs';
import { z } from 'zod';
import { DEFAULT_POSTGRES_URL } from '@ticketing/config';
import { defineTopic } from '@ticketing/contracts';
import { databaseUrl, ensureDatabase } from '@ticketing/db';
import { createLogger } from '@ticketing/observability';
import { waitFor } from '@ticketing/testing';
import { createKafka, createProducer } from './client';
import { recordFirstDelivery } from './inbox';
import { enqueueEvent, type RawSqlExecutor } from './outbox';
import { OutboxRelay } from './outbox-relay';
import { ensureTopics } from './topics';

const logger = createLogger('outbox-relay-test', 'silent');
const adminUrl = process.env.POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
const databaseName = `outbox_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
const url = databaseUrl(adminUrl, databaseName);

/** `$executeRaw` over a plain pg client, as Prisma's tagged template would run it. */
function rawExecutor(client: Client): RawSqlExecutor {
  return {
    async $executeRaw(query, ...values) {
      const text = query.reduce((sql, part, index) => `${sql}$${index}${part}`);
      return (await client.query(text, values)).rowCount ?? 0;
    },
  };
}

describe('outbox relay and inbox against real PostgreSQL and Kafka', () => {
  const topic = defineTopic(`test.outbox.${randomUUID()}`, { 'thing.happened': z.object({ n: z.number() }) });
  let db: Client;
  let kafka: Kafka;

  beforeAll(async () => {
    await ensureDatabase(adminUrl, databaseName);
    db = new Client({ connectionString: url });
    await db.connect();
    await db.query(`CREATE TABLE outbox_messages (position BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, topic TEXT NOT NULL,
      message_key TEXT NOT NULL, payload JSONB NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now(), published_at TIMESTAMPTZ, claimed_by TEXT, claimed_until TIMESTAMPTZ)`);
    await db.query(`CREATE TABLE inbox_messages (consumer TEXT NOT NULL, message_id TEXT NOT NULL,
      processed_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (consumer, message_id))`);
    kafka = createKafka({ clientId: 'outbox-relay-test', brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','), logger });
    await ensureTopics(kafka, [topic.name]);
  });

  afterAll(async () => {
    await db.end();
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
  });

  it('publishes every committed message exactly once across two relay replicas, oldest first per key', async () => {
    const tenant = { accountId: 'acct_test', mode: 'test' as const };
    const executor = rawExecutor(db);
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

  it('records a message for a consumer only once', async () => {
    const executor = rawExecutor(db);
    expect(await recordFirstDelivery(executor, 'billing', 'msg_1')).toBe(true);
    expect(await recordFirstDelivery(executor, 'billing', 'msg_1')).toBe(false);
    expect(await recordFirstDelivery(executor, 'reporting', 'msg_1')).toBe(true);
  });
});
