import { randomUUID } from 'node:crypto';
import type { IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import { createProducer } from './client';
import { DEAD_LETTER_HEADERS, deadLetterTopicOf } from './dead-letter';
import { headerText } from './message-headers';

/** A dead letter as an operator reads it: where it waits, why, and what it is. */
export interface DeadLetterSummary {
  partition: number;
  offset: string;
  reason: string;
  error: string;
  original: { topic: string; partition: string; offset: string };
  consumer_group: string;
  attempts: string;
  dead_lettered_at: string;
  /** The event's id and type when the value is an event envelope. */
  event: { id: unknown; type: unknown } | null;
}

export interface DeadLetterPass {
  deadLetterTopic: string;
  /** The letters read, in order per partition; when replaying, the message of each was republished (once, see replayDeadLetters). */
  letters: DeadLetterSummary[];
}

/** The consumer group that remembers, per dead-letter topic, how far replays have gone. */
export function replayGroupOf(topic: string): string {
  return `dead-letter-replay.${topic}`;
}

/**
 * The letters of `<topic>.dlq` not replayed yet (decision 0020), read up to the end the topic had
 * when the pass began; nothing is sent or remembered.
 */
export function listDeadLetters(kafka: Kafka, topic: string): Promise<DeadLetterPass> {
  return readPending(kafka, topic, { replay: false });
}

/**
 * Once their cause is fixed, republishes the letters of `<topic>.dlq` not replayed yet to the
 * topic each came from, with its key, value and original headers (the `dlq-*` headers dropped),
 * so every consumer of that topic gets it again; a consumer that had applied it skips it through
 * its inbox, and one that still cannot apply it dead-letters it again, with its new reason. A
 * message that several consumer groups dead-lettered has a letter from each, and is republished
 * once per pass: once per letter, every group would get it that many times, and letters would
 * multiply with each pass. Each letter is marked replayed (the replay group's offset) only once
 * Kafka has its message back: a pass cut off midway resumes where it stopped, and at worst sends
 * its last message twice, which inboxes absorb.
 */
export function replayDeadLetters(kafka: Kafka, topic: string): Promise<DeadLetterPass> {
  return readPending(kafka, topic, { replay: true });
}

async function readPending(kafka: Kafka, topic: string, { replay }: { replay: boolean }): Promise<DeadLetterPass> {
  const deadLetterTopic = deadLetterTopicOf(topic);
  const group = replayGroupOf(topic);
  const { ends, starts } = await pendingRange(kafka, deadLetterTopic, group);
  const letters: DeadLetterSummary[] = [];
  const remaining = [...ends].filter(([partition, end]) => (starts.get(partition) ?? 0) < end).map(([partition]) => partition);
  if (remaining.length === 0) return { deadLetterTopic, letters };

  // Listing reads through a group of its own, from the start, skipping what was replayed already.
  const readerGroup = replay ? group : `dead-letter-list.${topic}.${randomUUID()}`;
  // A failure ends the pass (the consumer crashes instead of restarting), for the operator to see.
  const consumer = kafka.consumer({ groupId: readerGroup, retry: { retries: 2, restartOnFailure: async () => false } });
  // Only a replay sends anything.
  const producer = replay ? createProducer(kafka) : null;
  await Promise.all([consumer.connect(), producer?.connect()]);
  try {
    await consumer.subscribe({ topic: deadLetterTopic, fromBeginning: true });
    const republished = new Set<string>();
    await new Promise<void>((resolve, reject) => {
      const open = new Set(remaining);
      consumer.on(consumer.events.CRASH, ({ payload }) => reject(payload.error));
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            const offset = BigInt(message.offset);
            if (!open.has(partition) || offset < BigInt(starts.get(partition) ?? 0)) return;
            if (offset < BigInt(ends.get(partition)!)) {
              const letter = summaryOf(partition, message);
              letters.push(letter);
              if (producer) {
                const original = `${letter.original.topic}/${letter.original.partition}/${letter.original.offset}`;
                if (!republished.has(original)) {
                  await producer.send({ topic: letter.original.topic || topic, acks: -1, messages: [withoutDeadLetterHeaders(message)] });
                  republished.add(original);
                }
                await consumer.commitOffsets([{ topic: deadLetterTopic, partition, offset: String(offset + 1n) }]);
              }
            }
            if (offset + 1n >= BigInt(ends.get(partition)!)) {
              open.delete(partition);
              if (open.size === 0) resolve();
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await Promise.all([consumer.disconnect(), producer?.disconnect()]);
    if (!replay) await deleteGroup(kafka, readerGroup);
  }
  return { deadLetterTopic, letters };
}

/** Per partition of the dead-letter topic: its end now, and where replays stopped (its start if never). */
async function pendingRange(kafka: Kafka, deadLetterTopic: string, group: string): Promise<{ ends: Map<number, string>; starts: Map<number, string> }> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(deadLetterTopic)) return { ends: new Map(), starts: new Map() };
    const offsets = await admin.fetchTopicOffsets(deadLetterTopic);
    const [replayed] = await admin.fetchOffsets({ groupId: group, topics: [deadLetterTopic] });
    // -1: the group never committed on that partition.
    const committed = new Map((replayed?.partitions ?? []).filter(({ offset }) => offset !== '-1').map(({ partition, offset }) => [partition, offset]));
    return {
      ends: new Map(offsets.map(({ partition, high }) => [partition, high])),
      starts: new Map(offsets.map(({ partition, low }) => [partition, committed.get(partition) ?? low])),
    };
  } finally {
    await admin.disconnect();
  }
}

async function deleteGroup(kafka: Kafka, groupId: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.deleteGroups([groupId]);
  } finally {
    await admin.disconnect();
  }
}

function withoutDeadLetterHeaders(message: KafkaMessage): { key: Buffer | null; value: Buffer | null; headers: IHeaders } {
  const added = new Set<string>(Object.values(DEAD_LETTER_HEADERS));
  const headers = Object.fromEntries(Object.entries(message.headers ?? {}).filter(([name]) => !added.has(name)));
  return { key: message.key, value: message.value, headers };
}

function summaryOf(partition: number, message: KafkaMessage): DeadLetterSummary {
  const header = (name: string) => headerText(message.headers, name) ?? '';
  return {
    partition,
    offset: message.offset,
    reason: header(DEAD_LETTER_HEADERS.reason),
    error: header(DEAD_LETTER_HEADERS.error),
    original: { topic: header(DEAD_LETTER_HEADERS.topic), partition: header(DEAD_LETTER_HEADERS.partition), offset: header(DEAD_LETTER_HEADERS.offset) },
    consumer_group: header(DEAD_LETTER_HEADERS.consumerGroup),
    attempts: header(DEAD_LETTER_HEADERS.attempts),
    dead_lettered_at: header(DEAD_LETTER_HEADERS.deadLetteredAt),
    event: eventOf(message.value),
  };
}

function eventOf(value: Buffer | null): DeadLetterSummary['event'] {
  try {
    const parsed: unknown = JSON.parse(value?.toString() ?? '');
    return typeof parsed === 'object' && parsed !== null ? { id: (parsed as { id?: unknown }).id, type: (parsed as { type?: unknown }).type } : null;
  } catch {
    return null;
  }
}
