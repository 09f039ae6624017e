import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigResourceTypes, ConfigSource, type IHeaders, type Kafka, type Producer } from 'kafkajs';
import pino from 'pino';
import { Pool } from 'pg';
import { z } from 'zod';
import { defineTopic, type DomainEventEnvelope } from '@ticketing/contracts';
import { createLogger, withRequestId } from '@ticketing/observability';
import { waitFor } from '@ticketing/testing';
import { createProducer } from './client';
import { startEventConsumer, type EventConsumer } from './consumer';
import { DEAD_LETTER_HEADERS, DEAD_LETTER_MAX_MESSAGE_BYTES, deadLetterTopicOf } from './dead-letter';
import { listDeadLetters, replayDeadLetters } from './dead-letter-replay';
import { recordFirstDelivery } from './inbox';
import { EVENT_HEADERS, headerText } from './message-headers';
import { consumedMessages, consumerLag, deadLetteredMessages } from './metrics';
import { enqueueEvent } from './outbox';
import { OutboxRelay } from './outbox-relay';
import { createKafkaTestDatabase, createTestKafka, rawSqlClient, type KafkaTestDatabase } from '../test/support/kafka-test-setup';
import { ensureTopics } from './topics';

const logger = createLogger('consumer-test', 'silent');
const thingHappened = (name: string) => defineTopic(`test.consumer.${name}.${randomUUID()}`, { 'thing.happened': z.object({ n: z.number() }) });
type TestTopic = ReturnType<typeof thingHappened>;

/** A logger whose lines the test can read. */
function capturingLogger(): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  return { logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }), lines };
}

interface ReceivedMessage {
  key: string;
  value: string;
  headers: IHeaders;
}

describe('event consumer against real Kafka and PostgreSQL', () => {
  let database: KafkaTestDatabase;
  let pool: Pool;
  let kafka: Kafka;
  let producer: Producer;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    database = await createKafkaTestDatabase();
    await database.db.query('CREATE TABLE applied (message_id TEXT NOT NULL, n INT NOT NULL)');
    pool = new Pool({ connectionString: database.url, max: 2 });
    kafka = createTestKafka('consumer-test', logger);
    producer = createProducer(kafka);
    await producer.connect();
  });

  afterEach(async () => {
    while (stops.length > 0) await stops.pop()!();
  });

  afterAll(async () => {
    await producer.disconnect();
    await pool.end();
    await database.drop();
  });

  /** Every message on `topic` from the beginning, as it arrives. */
  async function readTopic(topic: string): Promise<ReceivedMessage[]> {
    const received: ReceivedMessage[] = [];
    const reader = kafka.consumer({ groupId: `consumer-test-reader-${randomUUID()}` });
    await reader.connect();
    await reader.subscribe({ topic, fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        received.push({ key: message.key!.toString(), value: message.value?.toString() ?? '', headers: message.headers ?? {} });
      },
    });
    stops.push(() => reader.disconnect());
    return received;
  }

  /** Applies an event once, through the inbox, in one transaction; `fail` runs inside it, so a throw rolls it back. */
  async function apply(event: DomainEventEnvelope<string, { n: number }>, fail: () => void = () => undefined): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      if (await recordFirstDelivery(rawSqlClient(client), 'consumer-test', event.id)) {
        await client.query('INSERT INTO applied (message_id, n) VALUES ($1, $2)', [event.id, event.data.n]);
      }
      fail();
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }

  const envelope = (n: unknown): DomainEventEnvelope => ({
    id: `msg_${randomUUID()}`,
    type: 'thing.happened',
    account_id: 'acct_consumer_test',
    mode: 'test',
    occurred_at: new Date().toISOString(),
    data: { n },
  });

  const appliedRows = async (): Promise<Array<{ n: number }>> => (await pool.query('SELECT n FROM applied ORDER BY n')).rows;

  const valueOf = async (metric: typeof consumedMessages | typeof deadLetteredMessages, labels: Record<string, string>) =>
    (await metric.get()).values.find((sample) => Object.entries(labels).every(([name, value]) => (sample.labels as Record<string, unknown>)[name] === value))?.value ?? 0;

  async function lagOf(topic: string, group: string): Promise<number | undefined> {
    const samples = (await consumerLag.get()).values.filter((sample) => sample.labels.topic === topic && sample.labels.group === group);
    return samples.length === 0 ? undefined : samples.reduce((sum, sample) => sum + sample.value, 0);
  }

  it('sends what it cannot apply to <topic>.dlq with the reason, retries a flaky handler, and goes on with the partition', async () => {
    const topic: TestTopic = thingHappened('dlq');
    const group = `consumer-test-${randomUUID()}`;
    await ensureTopics(kafka, [topic.name]);
    const attempts = new Map<number, number>();
    let releaseUnlucky!: () => void;
    const unluckyMayFail = new Promise<void>((resolve) => (releaseUnlucky = resolve));

    const [flaky, good] = [envelope(7), envelope(1)];
    const bodies = ['{"this is": not json', JSON.stringify(envelope('seven')), JSON.stringify(envelope(13)), JSON.stringify(flaky), JSON.stringify(good)];
    // One key: one partition, in this order.
    await producer.send({ topic: topic.name, messages: bodies.map((value) => ({ key: 'one-key', value })) });

    const consumer: EventConsumer = await startEventConsumer({
      kafka,
      groupId: group,
      topic,
      logger,
      retry: { attempts: 3, backoff: { initialMs: 10, maxMs: 40 } },
      handle: async (event) => {
        const attempt = (attempts.get(event.data.n) ?? 0) + 1;
        attempts.set(event.data.n, attempt);
        if (event.data.n === 13) {
          await unluckyMayFail;
          throw new Error('thirteen always fails');
        }
        await apply(event, () => {
          if (event.data.n === 7 && attempt <= 2) throw new Error('seven fails twice');
        });
      },
    });
    stops.push(() => consumer.disconnect());

    await waitFor('the failing handler to be called', async () => (attempts.has(13) ? true : undefined));
    // The unlucky message and the two after it are not committed yet.
    expect(await lagOf(topic.name, group)).toBeGreaterThanOrEqual(3);
    releaseUnlucky();

    const deadLetters = await readTopic(deadLetterTopicOf(topic.name));
    await waitFor('three dead letters', async () => (deadLetters.length >= 3 ? true : undefined));
    await waitFor('the good message to be applied', async () => ((await appliedRows()).some((row) => row.n === 1) ? true : undefined));

    expect(deadLetters.map((letter) => headerText(letter.headers, DEAD_LETTER_HEADERS.reason))).toEqual(['not_json', 'invalid_event', 'handler_failed']);
    expect(deadLetters.map((letter) => letter.value)).toEqual(bodies.slice(0, 3));
    expect(deadLetters.map((letter) => letter.key)).toEqual(['one-key', 'one-key', 'one-key']);
    const [notJson, invalid, failed] = deadLetters.map((letter) => (name: string) => headerText(letter.headers, name));
    expect(notJson!(DEAD_LETTER_HEADERS.topic)).toBe(topic.name);
    expect([notJson!, invalid!, failed!].map((header) => header(DEAD_LETTER_HEADERS.offset))).toEqual(['0', '1', '2']);
    expect(invalid!(DEAD_LETTER_HEADERS.error)).toMatch(/data\.n/);
    expect(failed!(DEAD_LETTER_HEADERS.error)).toBe('thirteen always fails');
    expect(failed!(DEAD_LETTER_HEADERS.attempts)).toBe('3');
    expect(failed!(DEAD_LETTER_HEADERS.consumerGroup)).toBe(group);

    expect(attempts.get(7)).toBe(3);
    expect(await appliedRows()).toEqual([{ n: 1 }, { n: 7 }]);
    const labels = { topic: topic.name, group };
    for (const reason of ['not_json', 'invalid_event', 'handler_failed']) expect(await valueOf(deadLetteredMessages, { ...labels, reason })).toBe(1);
    expect(await valueOf(consumedMessages, { ...labels, outcome: 'handled' })).toBe(2);
    await waitFor('the lag to reach zero', async () => ((await lagOf(topic.name, group)) === 0 ? true : undefined));
  });

  it('hands a batch handler the valid events of a fetch together, and falls back to one by one so only what fails alone is dead-lettered', async () => {
    const topic: TestTopic = thingHappened('batch');
    const group = `consumer-test-${randomUUID()}`;
    await ensureTopics(kafka, [topic.name]);
    const bodies = ['{"not": json', JSON.stringify(envelope(41)), JSON.stringify(envelope(42)), JSON.stringify(envelope(49)), JSON.stringify(envelope(43))];
    // One key: one partition, all in one fetch.
    await producer.send({ topic: topic.name, messages: bodies.map((value) => ({ key: 'one-key', value })) });
    const batches: number[][] = [];
    const alone: number[] = [];

    const consumer = await startEventConsumer({
      kafka,
      groupId: group,
      topic,
      logger,
      retry: { attempts: 2, backoff: { initialMs: 10, maxMs: 20 } },
      handleBatch: async (events) => {
        const ns = events.map(({ event }) => event.data.n);
        batches.push(ns);
        if (ns.includes(49)) throw new Error('a batch with forty-nine fails');
        for (const { event } of events) await apply(event);
      },
      handle: async (event) => {
        alone.push(event.data.n);
        if (event.data.n === 49) throw new Error('forty-nine always fails');
        await apply(event);
      },
    });
    stops.push(() => consumer.disconnect());

    const deadLetters = await readTopic(deadLetterTopicOf(topic.name));
    await waitFor('two dead letters', async () => (deadLetters.length >= 2 ? true : undefined));
    await waitFor('the three good events applied', async () => ((await appliedRows()).filter((row) => row.n > 40 && row.n < 50).length === 3 ? true : undefined));

    expect(deadLetters.map((letter) => headerText(letter.headers, DEAD_LETTER_HEADERS.reason))).toEqual(['not_json', 'handler_failed']);
    expect(deadLetters.map((letter) => headerText(letter.headers, DEAD_LETTER_HEADERS.offset))).toEqual(['0', '3']);
    // The batch was tried its two attempts, then each event alone: forty-nine its two attempts, the others once.
    expect(batches).toEqual([[41, 42, 49, 43], [41, 42, 49, 43]]);
    expect(alone).toEqual([41, 42, 49, 49, 43]);
    expect((await appliedRows()).filter((row) => row.n > 40 && row.n < 50)).toEqual([{ n: 41 }, { n: 42 }, { n: 43 }]);
    const labels = { topic: topic.name, group };
    expect(await valueOf(consumedMessages, { ...labels, outcome: 'handled' })).toBe(3);
    await waitFor('the lag to reach zero', async () => ((await lagOf(topic.name, group)) === 0 ? true : undefined));
  });

  it('resolves a batch handled together at once, counting every event', async () => {
    const topic: TestTopic = thingHappened('batch-ok');
    const group = `consumer-test-${randomUUID()}`;
    await ensureTopics(kafka, [topic.name]);
    await producer.send({ topic: topic.name, messages: [51, 52, 53].map((n) => ({ key: 'one-key', value: JSON.stringify(envelope(n)) })) });
    const batches: number[][] = [];
    const consumer = await startEventConsumer({
      kafka,
      groupId: group,
      topic,
      logger,
      handleBatch: async (events) => {
        batches.push(events.map(({ event }) => event.data.n));
        for (const { event } of events) await apply(event);
      },
      handle: async () => {
        throw new Error('not called when the batch succeeds');
      },
    });
    stops.push(() => consumer.disconnect());

    await waitFor('the lag to reach zero', async () => ((await lagOf(topic.name, group)) === 0 ? true : undefined));
    expect(batches.flat()).toEqual([51, 52, 53]);
    expect((await appliedRows()).filter((row) => row.n > 50 && row.n < 60)).toEqual([{ n: 51 }, { n: 52 }, { n: 53 }]);
    expect(await valueOf(consumedMessages, { topic: topic.name, group, outcome: 'handled' })).toBe(3);
  });

  it('bounds how long an inbox transaction waits for a lock: a lock held elsewhere fails the attempt, which is retried and dead-lettered, instead of stalling the partition', async () => {
    const [holder, client] = [await pool.connect(), await pool.connect()];
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE applied IN EXCLUSIVE MODE');
      await client.query('BEGIN');
      expect(await recordFirstDelivery(rawSqlClient(client), 'consumer-test', `msg_${randomUUID()}`)).toBe(true);
      const started = Date.now();
      await expect(client.query("INSERT INTO applied (message_id, n) VALUES ('blocked', 0)")).rejects.toMatchObject({ code: '55P03' });
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await client.query('ROLLBACK');
      await holder.query('ROLLBACK');
      client.release();
      holder.release();
    }
  });

  it('dead-letters a message as large as the broker takes, whose letter with its headers is larger, and goes on with the partition', async () => {
    const topic: TestTopic = thingHappened('large');
    const group = `consumer-test-${randomUUID()}`;
    await ensureTopics(kafka, [topic.name]);
    // Just under the broker's default limit (1,048,588 bytes a batch): the letter's headers take it over.
    const large = `not json ${'x'.repeat(1_048_300 - 9)}`;
    await producer.send({ topic: topic.name, messages: [{ key: 'one-key', value: large }, { key: 'one-key', value: JSON.stringify(envelope(3)) }] });
    const consumer: EventConsumer = await startEventConsumer({ kafka, groupId: group, topic, logger, handle: (event) => apply(event) });
    stops.push(() => consumer.disconnect());

    await waitFor('the message after it to be applied', async () => ((await appliedRows()).some((row) => row.n === 3) ? true : undefined));
    const deadLetters = await readTopic(deadLetterTopicOf(topic.name));
    await waitFor('its dead letter', async () => (deadLetters.length >= 1 ? true : undefined));
    expect(deadLetters[0]!.value).toBe(large);
    expect(headerText(deadLetters[0]!.headers, DEAD_LETTER_HEADERS.reason)).toBe('not_json');
  });

  /** The dead-letter topic's own settings, by name. */
  async function ownSettingsOf(topic: string): Promise<Record<string, string>> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const described = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }] });
      const own = described.resources[0]!.configEntries.filter((entry) => entry.configSource === ConfigSource.TOPIC_CONFIG);
      return Object.fromEntries(own.map((entry) => [entry.configName, entry.configValue]));
    } finally {
      await admin.disconnect();
    }
  }

  /** An operator's change of a topic's settings, returning once the broker describes them (it applies a change a moment after acknowledging it). */
  async function setTopicSettings(topic: string, settings: Record<string, string>): Promise<void> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const configEntries = Object.entries(settings).map(([name, value]) => ({ name, value }));
      await admin.alterConfigs({ validateOnly: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configEntries }] });
    } finally {
      await admin.disconnect();
    }
    await waitFor(`the settings of ${topic} to be applied`, async () => {
      const own = await ownSettingsOf(topic);
      return Object.entries(settings).every(([name, value]) => own[name] === value) ? true : undefined;
    });
  }

  it("keeps the dead-letter topic's own settings, and never lowers a limit an operator raised", async () => {
    const topic: TestTopic = thingHappened('dlq-settings');
    const deadLetterTopic = deadLetterTopicOf(topic.name);
    await ensureTopics(kafka, [topic.name, deadLetterTopic]);
    await setTopicSettings(deadLetterTopic, { 'retention.ms': '1209600000' });
    const start = () => startEventConsumer({ kafka, groupId: `consumer-test-${randomUUID()}`, topic, logger, handle: (event) => apply(event) });

    await (await start()).disconnect();
    expect(await ownSettingsOf(deadLetterTopic)).toEqual({ 'retention.ms': '1209600000', 'max.message.bytes': String(DEAD_LETTER_MAX_MESSAGE_BYTES) });

    await setTopicSettings(deadLetterTopic, { 'retention.ms': '1209600000', 'max.message.bytes': '8388608' });
    await (await start()).disconnect();
    expect(await ownSettingsOf(deadLetterTopic)).toEqual({ 'retention.ms': '1209600000', 'max.message.bytes': '8388608' });
  });

  it('says it stopped by itself when kafkajs gives up on it (a dead letter the broker refuses), and started again once the cause is fixed it goes on with the partition', async () => {
    const topic: TestTopic = thingHappened('refused-letter');
    await ensureTopics(kafka, [topic.name]);
    // The source topic takes larger messages than its dead-letter topic: the letter is refused as too large, which kafkajs does not retry.
    await setTopicSettings(topic.name, { 'max.message.bytes': '8388608' });
    const tooLarge = `not json ${'x'.repeat(3 * 1_048_576)}`;
    await producer.send({ topic: topic.name, messages: [{ key: 'one-key', value: tooLarge }, { key: 'one-key', value: JSON.stringify(envelope(15)) }] });
    const group = `consumer-test-${randomUUID()}`;
    const consumer = await startEventConsumer({ kafka, groupId: group, topic, logger, handle: (event) => apply(event) });
    stops.push(() => consumer.disconnect());

    const reason = await Promise.race([consumer.stoppedByItself, sleep(30_000, undefined, { ref: false }).then(() => new Error('still running after 30 s'))]);
    expect(reason.message).toMatch(/larger than the max message size/);
    expect((await appliedRows()).some((row) => row.n === 15)).toBe(false);

    await setTopicSettings(deadLetterTopicOf(topic.name), { 'max.message.bytes': '8388608' });
    const restarted = await startEventConsumer({ kafka, groupId: group, topic, logger, handle: (event) => apply(event) });
    stops.push(() => restarted.disconnect());
    await waitFor('the message after it to be applied', async () => ((await appliedRows()).some((row) => row.n === 15) ? true : undefined), { timeoutMs: 30_000 });
  }, 90_000);

  it('keeps its partitions while a handler outlasts the session timeout, so the message is tried its attempts once and dead-lettered once', async () => {
    const topic: TestTopic = thingHappened('slow');
    await ensureTopics(kafka, [topic.name]);
    let calls = 0;
    const consumer = await startEventConsumer({
      kafka,
      groupId: `consumer-test-${randomUUID()}`,
      topic,
      logger,
      retry: { attempts: 1, backoff: { initialMs: 10, maxMs: 10 } },
      handle: async () => {
        calls += 1;
        // Longer than the 10 s session: without heartbeats the member is evicted meanwhile and
        // the message comes back, counted from attempt 1 again, over and over.
        await sleep(11_500);
        throw new Error('too slow to apply');
      },
    });
    stops.push(() => consumer.disconnect());
    const deadLetters = await readTopic(deadLetterTopicOf(topic.name));
    await producer.send({ topic: topic.name, messages: [{ key: 'slow-key', value: JSON.stringify(envelope(31)) }] });
    await waitFor('the slow message dead-lettered', async () => (deadLetters.length > 0 ? true : undefined), { timeoutMs: 30_000 });
    await sleep(6_000);
    expect({ calls, deadLetters: deadLetters.length }).toEqual({ calls: 1, deadLetters: 1 });
  }, 60_000);

  it('replays dead letters once their cause is fixed: each consumer gets them again, and a second pass sends nothing', async () => {
    const topic: TestTopic = thingHappened('replay');
    await ensureTopics(kafka, [topic.name]);
    let databaseDown = true;
    const consumer = await startEventConsumer({
      kafka,
      groupId: `consumer-test-${randomUUID()}`,
      topic,
      logger,
      retry: { attempts: 2, backoff: { initialMs: 10, maxMs: 20 } },
      handle: async (event) => {
        if (databaseDown) throw new Error('database unreachable');
        await apply(event);
      },
    });
    stops.push(() => consumer.disconnect());
    const events = [envelope(21), envelope(22)];
    await producer.send({ topic: topic.name, messages: events.map((event) => ({ key: 'replay-key', value: JSON.stringify(event), headers: { 'request-id': 'req_replayed' } })) });
    const deadLetters = await readTopic(deadLetterTopicOf(topic.name));
    await waitFor('both events dead-lettered', async () => (deadLetters.length === 2 ? true : undefined));

    const listed = await listDeadLetters(kafka, topic.name);
    expect(listed.letters.map((letter) => [letter.reason, letter.error, letter.event])).toEqual(events.map((event) => ['handler_failed', 'database unreachable', { id: event.id, type: 'thing.happened' }]));
    expect((await listDeadLetters(kafka, topic.name)).letters).toHaveLength(2);

    databaseDown = false;
    const republished = await readTopic(topic.name);
    expect((await replayDeadLetters(kafka, topic.name)).letters).toHaveLength(2);
    await waitFor('the replayed events applied', async () => ((await appliedRows()).filter((row) => row.n === 21 || row.n === 22).length === 2 ? true : undefined));
    expect(await appliedRows()).toEqual(expect.arrayContaining([{ n: 21 }, { n: 22 }]));
    await waitFor('the topic read again', async () => (republished.length === 4 ? true : undefined));
    // Back with its key, value and own headers; the dead-letter headers stay behind.
    expect(republished.slice(2).map((message) => [message.key, message.value, message.headers['request-id']?.toString(), message.headers[DEAD_LETTER_HEADERS.reason]])).toEqual(
      events.map((event) => ['replay-key', JSON.stringify(event), 'req_replayed', undefined]),
    );
    expect((await replayDeadLetters(kafka, topic.name)).letters).toEqual([]);
    expect((await listDeadLetters(kafka, topic.name)).letters).toEqual([]);
  });

  it('replays a message that two consumer groups dead-lettered once, so letters do not multiply with each pass', async () => {
    const topic: TestTopic = thingHappened('two-groups');
    await ensureTopics(kafka, [topic.name]);
    for (const _ of [1, 2]) {
      const consumer = await startEventConsumer({ kafka, groupId: `consumer-test-${randomUUID()}`, topic, logger, handle: async () => undefined });
      stops.push(() => consumer.disconnect());
    }
    const deadLetters = await readTopic(deadLetterTopicOf(topic.name));
    const onTopic = await readTopic(topic.name);
    await producer.send({ topic: topic.name, messages: [{ key: 'two-groups-key', value: JSON.stringify(envelope('not a number')) }] });
    await waitFor('a letter from each group', async () => (deadLetters.length === 2 ? true : undefined));

    expect((await replayDeadLetters(kafka, topic.name)).letters).toHaveLength(2);
    await waitFor('the replayed message dead-lettered by each group again', async () => (deadLetters.length === 4 ? true : undefined));
    expect((await replayDeadLetters(kafka, topic.name)).letters).toHaveLength(2);
    await waitFor('the second replay dead-lettered by each group again', async () => (deadLetters.length === 6 ? true : undefined));
    await sleep(2_000);
    expect({ onTopic: onTopic.length, deadLetters: deadLetters.length }).toEqual({ onTopic: 3, deadLetters: 6 });
  }, 60_000);

  it('carries the request id from an outbox row through Kafka headers into the consumer’s log lines', async () => {
    const topic: TestTopic = thingHappened('request-id');
    await ensureTopics(kafka, [topic.name]);
    const requestId = `req_${randomUUID().replace(/-/g, '')}`;
    const tenant = { accountId: 'acct_request_id_test', mode: 'live' as const };
    const written = await withRequestId(requestId, () =>
      enqueueEvent(rawSqlClient(database.db), { topic, type: 'thing.happened', aggregateId: 'agg_request', tenant, data: { n: 42 } }),
    );
    expect(written.request_id).toBe(requestId);

    const relay = new OutboxRelay({ databaseUrl: database.url, producer, logger, pollIntervalMs: 20 });
    relay.start();
    stops.push(() => relay.stop());
    const raw = await readTopic(topic.name);
    const captured = capturingLogger();
    const consumer = await startEventConsumer({
      kafka,
      groupId: `consumer-test-${randomUUID()}`,
      topic,
      logger: captured.logger,
      handle: async (_event, context) => context.logger.info('thing applied'),
    });
    stops.push(() => consumer.disconnect());

    await waitFor('the message on Kafka', async () => (raw.length > 0 ? true : undefined));
    expect(headerText(raw[0]!.headers, EVENT_HEADERS.requestId)).toBe(requestId);
    expect(headerText(raw[0]!.headers, EVENT_HEADERS.accountId)).toBe(tenant.accountId);
    expect(headerText(raw[0]!.headers, EVENT_HEADERS.mode)).toBe('live');

    const line = await waitFor('the consumer’s log line', async () => captured.lines.find((entry) => entry.msg === 'thing applied'));
    expect(line).toMatchObject({ request_id: requestId, account_id: tenant.accountId, mode: 'live', event_id: written.id, event_type: 'thing.happened' });
  });
});
