import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin, Consumer, EachBatchPayload, EachMessagePayload, Kafka, KafkaMessage, Producer } from 'kafkajs';
import { createEventParser, type EventOf, type ParsedEvent, type TopicDefinition } from '@ticketing/contracts';
import { withRequestId, type Logger } from '@ticketing/observability';
import { backoffDelay, type Backoff } from '@ticketing/backoff';
import { createProducer } from './client';
import { deadLetterTopicOf, sendToDeadLetterTopic, sizeDeadLetterTopic, type DeadLetterReason } from './dead-letter';
import { logContextFromHeaders, logContextOf } from './message-headers';
import { addConsumerLagProbe, consumedMessages, deadLetteredMessages, handlerFailures, type PartitionLag } from './metrics';
import { ensureTopics } from './topics';

/** How often a failing handler is tried on one message before the message is dead-lettered. */
export interface HandlerRetry {
  attempts: number;
  backoff: Backoff;
}

/** Five attempts over about 3 s of waiting between them: outlasts a blip. */
const DEFAULT_RETRY: HandlerRetry = { attempts: 5, backoff: { initialMs: 200, maxMs: 2_000 } };

/**
 * A member that died without leaving holds its partitions until its session times out; 10 s
 * (kafkajs defaults to 30 s) lets a restarted replica take over quickly.
 */
const SESSION_TIMEOUT_MS = 10_000;

/**
 * How often a member tells the group it is alive while a handler runs. A handler slower than
 * the session timeout would otherwise cost the member its partitions: the message would come
 * back, its attempts counted from 1 again, and never reach the dead-letter topic, holding its
 * partition up for good. kafkajs sends at most one heartbeat per its own 3 s interval.
 */
const HEARTBEAT_EVERY_MS = 1_000;

export interface EventConsumerOptions<TTopic extends TopicDefinition> {
  kafka: Kafka;
  groupId: string;
  topic: TTopic;
  logger: Logger;
  /**
   * Must be idempotent (use the inbox): a message can arrive more than once, and a failed
   * attempt is tried again. `logger` carries the event's request id, account and mode.
   */
  handle(event: EventOf<TTopic>, context: { logger: Logger }): Promise<void>;
  /**
   * Optional: the valid events of one fetched batch of a partition, in order, handled together
   * (one statement for many). Idempotent like `handle`. When it fails every attempt, each event
   * is handled alone by `handle`, so only what fails by itself is dead-lettered. It runs in no
   * event's request-id scope: what it writes to an outbox carries no request id.
   */
  handleBatch?(events: ReadonlyArray<BatchedEvent<TTopic>>): Promise<void>;
  retry?: HandlerRetry;
}

/** A valid event of a fetched batch, with the logger that carries its request id, account and mode. */
export interface BatchedEvent<TTopic extends TopicDefinition> {
  event: EventOf<TTopic>;
  logger: Logger;
}

/** Where a message is, and what it is, as the dead-letter topic records it. */
interface Received {
  topic: string;
  partition: number;
  message: KafkaMessage;
}

/** What `heartbeat` both of kafkajs's payloads (a message, a batch) offer. */
interface Alive {
  heartbeat(): Promise<void>;
}

/** A running consumer; `disconnect` leaves the group and closes its other connections. */
export interface EventConsumer {
  disconnect(): Promise<void>;
  /**
   * Settles with the error if kafkajs gave up on the consumer: after a crash it does not restart
   * from (an error it takes as not retriable, such as a dead letter the broker refuses), it
   * consumes nothing more until started again.
   */
  stoppedByItself: Promise<Error>;
}

/**
 * Consumes one topic. Every message is checked against the topic's event catalogue; one that is
 * not JSON, fails the schema, or whose handler fails every attempt goes to `<topic>.dlq` with
 * the reason, and the partition moves on. Only if the dead-letter topic cannot be written is the
 * message left uncommitted, so nothing is ever skipped silently. Unknown event types on the topic
 * are ignored (newer producers).
 */
export async function startEventConsumer<TTopic extends TopicDefinition>(options: EventConsumerOptions<TTopic>): Promise<EventConsumer> {
  const { kafka, groupId, topic, logger } = options;
  await ensureTopics(kafka, [topic.name, deadLetterTopicOf(topic.name)]);
  await sizeDeadLetterTopic(kafka, deadLetterTopicOf(topic.name));
  const deadLetters = createProducer(kafka);
  await deadLetters.connect();
  const consumer = kafka.consumer({ groupId, sessionTimeout: SESSION_TIMEOUT_MS });
  const admin = kafka.admin();
  const removeLagProbe = addConsumerLagProbe(() => measureLag(admin, groupId, topic.name));
  const stoppedByItself = new Promise<Error>((resolve) => {
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart) resolve(payload.error);
    });
  });
  try {
    await consumer.connect();
    await consumer.subscribe({ topic: topic.name, fromBeginning: true });
    const processor = new MessageProcessor(options, deadLetters);
    if (options.handleBatch) await consumer.run({ eachBatchAutoResolve: false, eachBatch: (payload) => processor.processBatch(payload) });
    else await consumer.run({ eachMessage: (payload) => processor.process(payload) });
  } catch (error) {
    await closeAll(consumer, deadLetters, admin, removeLagProbe);
    throw error;
  }
  logger.info({ topic: topic.name, group: groupId }, 'consuming');
  return { disconnect: () => closeAll(consumer, deadLetters, admin, removeLagProbe), stoppedByItself };
}

async function closeAll(consumer: Consumer, deadLetters: Producer, admin: Admin, removeLagProbe: () => void): Promise<void> {
  removeLagProbe();
  await consumer.disconnect();
  await Promise.all([deadLetters.disconnect(), admin.disconnect()]);
}

/** Messages after the group's committed offset, per partition (from the start if none is committed). */
async function measureLag(admin: Admin, group: string, topic: string): Promise<PartitionLag[]> {
  await admin.connect();
  const [committed, ends] = await Promise.all([admin.fetchOffsets({ groupId: group, topics: [topic] }), admin.fetchTopicOffsets(topic)]);
  const committedByPartition = new Map((committed[0]?.partitions ?? []).map((entry) => [entry.partition, Number(entry.offset)]));
  return ends.map(({ partition, high, low }) => {
    const offset = committedByPartition.get(partition) ?? -1;
    return { topic, group, partition, lag: Number(high) - (offset >= 0 ? offset : Number(low)) };
  });
}

class MessageProcessor<TTopic extends TopicDefinition> {
  private readonly parse: (body: unknown) => ParsedEvent<TTopic>;
  private readonly retry: HandlerRetry;
  private readonly labels: { topic: string; group: string };

  constructor(
    private readonly options: EventConsumerOptions<TTopic>,
    private readonly deadLetters: Producer,
  ) {
    this.parse = createEventParser(options.topic);
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.labels = { topic: options.topic.name, group: options.groupId };
  }

  async process(payload: EachMessagePayload): Promise<void> {
    const received = { topic: payload.topic, partition: payload.partition, message: payload.message };
    const valid = await this.admit(received);
    if (!valid) return;
    // Whatever the handler enqueues in turn carries the same request id.
    await withRequestId(valid.event.request_id, () => this.handleWithRetries(payload, received, valid));
  }

  /**
   * A fetched batch of one partition: what is not a valid event is dead-lettered or ignored as
   * `process` would, the valid events go to `handleBatch` together, and the batch's offsets are
   * resolved once it is done. A batch kafkajs has taken back (a rebalance) stops where it is.
   */
  async processBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const valid: Array<BatchedEvent<TTopic> & { received: Received }> = [];
    let last: string | undefined;
    for (const message of batch.messages) {
      if (!payload.isRunning() || payload.isStale()) break;
      const received = { topic: batch.topic, partition: batch.partition, message };
      const admitted = await this.admit(received);
      if (admitted) valid.push({ ...admitted, received });
      last = message.offset;
    }
    if (valid.length > 0) await this.handleBatchWithRetries(payload, valid);
    if (last !== undefined) payload.resolveOffset(last);
    await payload.heartbeat();
  }

  /** The message's valid event with its logger, or null once a message that is not one was dead-lettered or ignored. */
  private async admit(received: Received): Promise<BatchedEvent<TTopic> | null> {
    const { message } = received;
    const position = { topic: received.topic, partition: received.partition, offset: message.offset };
    const body = decodeJson(message.value);
    if (!body.ok) {
      const logger = this.options.logger.child({ ...logContextFromHeaders(message.headers), ...position });
      await this.deadLetter(received, logger, 'not_json', body.error, 0);
      return null;
    }
    const parsed = this.parse(body.value);
    if (parsed.outcome === 'unknown_type') {
      this.options.logger.debug({ type: parsed.type, ...position }, 'ignoring unknown event type');
      consumedMessages.inc({ ...this.labels, outcome: 'ignored' });
      return null;
    }
    if (parsed.outcome === 'invalid') {
      const logger = this.options.logger.child({ ...logContextFromHeaders(message.headers), ...position });
      await this.deadLetter(received, logger, 'invalid_event', parsed.error, 0);
      return null;
    }
    const event = parsed.event;
    return { event, logger: this.options.logger.child({ ...logContextOf(event), event_id: event.id, event_type: event.type, ...position }) };
  }

  private async handleWithRetries(alive: Alive, received: Received, { event, logger }: BatchedEvent<TTopic>): Promise<void> {
    const handled = await this.withRetries(alive, logger, () => this.options.handle(event, { logger }));
    if (handled === true) consumedMessages.inc({ ...this.labels, outcome: 'handled' });
    else await this.deadLetter(received, logger, 'handler_failed', handled.error, handled.attempts);
  }

  /** The batch handler, with retries; if it never succeeds, each event alone, so one bad event does not hold back the rest. */
  private async handleBatchWithRetries(alive: Alive, events: ReadonlyArray<BatchedEvent<TTopic> & { received: Received }>): Promise<void> {
    const batchLogger = this.options.logger.child({ ...this.labels, partition: events[0]!.received.partition, events: events.length });
    const handled = await this.withRetries(alive, batchLogger, () => this.options.handleBatch!(events));
    if (handled === true) {
      consumedMessages.inc({ ...this.labels, outcome: 'handled' }, events.length);
      return;
    }
    batchLogger.warn({ error: handled.error }, 'batch handler failed every attempt; handling its events one by one');
    for (const item of events) await withRequestId(item.event.request_id, () => this.handleWithRetries(alive, item.received, item));
  }

  /** True once `work` succeeded, or the last error after every attempt failed. */
  private async withRetries(alive: Alive, logger: Logger, work: () => Promise<void>): Promise<true | { error: string; attempts: number }> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        logger.debug({ attempt }, 'handling');
        await whileAlive(alive, work());
        return true;
      } catch (error) {
        handlerFailures.inc(this.labels);
        if (attempt >= this.retry.attempts) return { error: errorText(error), attempts: attempt };
        const delayMs = backoffDelay(attempt, this.retry.backoff);
        logger.warn({ err: error, attempt, retry_in_ms: delayMs }, 'event handler failed; retrying');
        await sleep(delayMs);
        await alive.heartbeat();
      }
    }
  }

  private async deadLetter(received: Received, logger: Logger, reason: DeadLetterReason, error: string, attempts: number): Promise<void> {
    const { topic, partition, message } = received;
    await sendToDeadLetterTopic(this.deadLetters, { topic, partition, message, groupId: this.options.groupId, reason, error, attempts });
    deadLetteredMessages.inc({ ...this.labels, reason });
    consumedMessages.inc({ ...this.labels, outcome: 'dead_lettered' });
    logger.error({ reason, error, attempts, dead_letter_topic: deadLetterTopicOf(topic) }, 'message sent to the dead-letter topic');
  }
}

/** Waits for `work`, heartbeating meanwhile; a heartbeat refused (the group is rebalancing) is left to the next one. */
async function whileAlive(alive: Alive, work: Promise<void>): Promise<void> {
  const heartbeats = setInterval(() => void alive.heartbeat().catch(() => undefined), HEARTBEAT_EVERY_MS);
  try {
    await work;
  } finally {
    clearInterval(heartbeats);
  }
}

function decodeJson(value: Buffer | null): { ok: true; value: unknown } | { ok: false; error: string } {
  if (value === null) return { ok: false, error: 'The message has no value.' };
  try {
    return { ok: true, value: JSON.parse(value.toString('utf8')) };
  } catch (error) {
    return { ok: false, error: `The message value is not JSON: ${errorText(error)}` };
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
