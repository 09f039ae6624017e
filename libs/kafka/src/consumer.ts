import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin, Consumer, EachMessagePayload, Kafka, Producer } from 'kafkajs';
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
  retry?: HandlerRetry;
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
    await consumer.run({ eachMessage: (payload) => processor.process(payload) });
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
    const { partition, message } = payload;
    const position = { topic: payload.topic, partition, offset: message.offset };
    const body = decodeJson(message.value);
    if (!body.ok) {
      const logger = this.options.logger.child({ ...logContextFromHeaders(message.headers), ...position });
      return this.deadLetter(payload, logger, 'not_json', body.error, 0);
    }
    const parsed = this.parse(body.value);
    if (parsed.outcome === 'unknown_type') {
      this.options.logger.debug({ type: parsed.type, ...position }, 'ignoring unknown event type');
      consumedMessages.inc({ ...this.labels, outcome: 'ignored' });
      return;
    }
    if (parsed.outcome === 'invalid') {
      const logger = this.options.logger.child({ ...logContextFromHeaders(message.headers), ...position });
      return this.deadLetter(payload, logger, 'invalid_event', parsed.error, 0);
    }
    const event = parsed.event;
    const logger = this.options.logger.child({ ...logContextOf(event), event_id: event.id, event_type: event.type, ...position });
    // Whatever the handler enqueues in turn carries the same request id.
    await withRequestId(event.request_id, () => this.handleWithRetries(payload, event, logger));
  }

  private async handleWithRetries(payload: EachMessagePayload, event: EventOf<TTopic>, logger: Logger): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        logger.debug({ attempt }, 'handling event');
        await whileAlive(payload, this.options.handle(event, { logger }));
        consumedMessages.inc({ ...this.labels, outcome: 'handled' });
        return;
      } catch (error) {
        handlerFailures.inc(this.labels);
        if (attempt >= this.retry.attempts) {
          return this.deadLetter(payload, logger, 'handler_failed', errorText(error), attempt);
        }
        const delayMs = backoffDelay(attempt, this.retry.backoff);
        logger.warn({ err: error, attempt, retry_in_ms: delayMs }, 'event handler failed; retrying');
        await sleep(delayMs);
        await payload.heartbeat();
      }
    }
  }

  private async deadLetter(payload: EachMessagePayload, logger: Logger, reason: DeadLetterReason, error: string, attempts: number): Promise<void> {
    const { topic, partition, message } = payload;
    await sendToDeadLetterTopic(this.deadLetters, { topic, partition, message, groupId: this.options.groupId, reason, error, attempts });
    deadLetteredMessages.inc({ ...this.labels, reason });
    consumedMessages.inc({ ...this.labels, outcome: 'dead_lettered' });
    logger.error({ reason, error, attempts, dead_letter_topic: deadLetterTopicOf(topic) }, 'message sent to the dead-letter topic');
  }
}

/** Waits for `work`, heartbeating meanwhile; a heartbeat refused (the group is rebalancing) is left to the next one. */
async function whileAlive(payload: EachMessagePayload, work: Promise<void>): Promise<void> {
  const heartbeats = setInterval(() => void payload.heartbeat().catch(() => undefined), HEARTBEAT_EVERY_MS);
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
