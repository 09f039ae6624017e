import { ConfigResourceTypes, ConfigSource, type IHeaders, type Kafka, type KafkaMessage, type Producer } from 'kafkajs';

/**
 * Where a consumer puts a message it cannot apply, so its partition moves on: `<topic>.dlq`,
 * one per source topic (docs/decisions/0020). The message keeps its key, value and headers byte
 * for byte (republishing it to the source topic replays it; inboxes skip consumers that already
 * applied it) and gains headers saying why and where it came from.
 */
export function deadLetterTopicOf(topic: string): string {
  return `${topic}.dlq`;
}

/** not_json: the body is not JSON; invalid_event: it fails the event catalogue's schema; handler_failed: every attempt threw. */
export type DeadLetterReason = 'not_json' | 'invalid_event' | 'handler_failed';

export const DEAD_LETTER_HEADERS = {
  reason: 'dlq-reason',
  error: 'dlq-error',
  topic: 'dlq-original-topic',
  partition: 'dlq-original-partition',
  offset: 'dlq-original-offset',
  consumerGroup: 'dlq-consumer-group',
  attempts: 'dlq-attempts',
  deadLetteredAt: 'dlq-dead-lettered-at',
} as const;

/** Enough of the error to act on, short enough for a header. */
const MAX_ERROR_LENGTH = 2_000;

/**
 * The largest letter a dead-letter topic takes: twice the broker's default for a message (about
 * 1 MiB), so a message its source topic took fits with the headers its letter adds. At the
 * broker's limit, as first created, such a letter was refused as too large, a refusal kafkajs
 * does not retry, and the consumer stopped for good (a black-box probe).
 */
export const DEAD_LETTER_MAX_MESSAGE_BYTES = 2 * 1_048_588;

/**
 * Lets `deadLetterTopic` take letters of up to DEAD_LETTER_MAX_MESSAGE_BYTES, whether it was just
 * created or long ago. It only ever raises the topic's limit, and keeps every other setting the
 * topic has: Kafka's AlterConfigs (kafkajs has no incremental form) replaces a topic's whole set
 * of settings, so an operator's retention or a limit raised further would otherwise be reset at
 * every start of every consumer.
 */
export async function sizeDeadLetterTopic(kafka: Kafka, deadLetterTopic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const described = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: deadLetterTopic }] });
    const settings = described.resources[0]?.configEntries ?? [];
    const limit = settings.find((entry) => entry.configName === 'max.message.bytes');
    if (limit !== undefined && Number(limit.configValue) >= DEAD_LETTER_MAX_MESSAGE_BYTES) return;
    const ownSettings = settings.filter((entry) => entry.configSource === ConfigSource.TOPIC_CONFIG && entry.configName !== 'max.message.bytes');
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: deadLetterTopic,
          configEntries: [...ownSettings.map((entry) => ({ name: entry.configName, value: entry.configValue })), { name: 'max.message.bytes', value: String(DEAD_LETTER_MAX_MESSAGE_BYTES) }],
        },
      ],
    });
  } finally {
    await admin.disconnect();
  }
}

export interface DeadLetter {
  topic: string;
  partition: number;
  message: KafkaMessage;
  groupId: string;
  reason: DeadLetterReason;
  error: string;
  /** Handler attempts made (0 when the message was refused before reaching the handler). */
  attempts: number;
}

/** Publishes to the dead-letter topic; throws if Kafka does not take it, so the offset is not committed. */
export async function sendToDeadLetterTopic(producer: Producer, letter: DeadLetter): Promise<void> {
  const headers: IHeaders = {
    ...letter.message.headers,
    [DEAD_LETTER_HEADERS.reason]: letter.reason,
    [DEAD_LETTER_HEADERS.error]: letter.error.slice(0, MAX_ERROR_LENGTH),
    [DEAD_LETTER_HEADERS.topic]: letter.topic,
    [DEAD_LETTER_HEADERS.partition]: String(letter.partition),
    [DEAD_LETTER_HEADERS.offset]: letter.message.offset,
    [DEAD_LETTER_HEADERS.consumerGroup]: letter.groupId,
    [DEAD_LETTER_HEADERS.attempts]: String(letter.attempts),
    [DEAD_LETTER_HEADERS.deadLetteredAt]: new Date().toISOString(),
  };
  await producer.send({
    topic: deadLetterTopicOf(letter.topic),
    acks: -1,
    messages: [{ key: letter.message.key, value: letter.message.value, headers }],
  });
}
