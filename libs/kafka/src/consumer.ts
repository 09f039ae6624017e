import type { Consumer, Kafka } from 'kafkajs';
import type { DomainEventEnvelope, EventOf, TopicDefinition } from '@ticketing/contracts';
import type { Logger } from '@ticketing/observability';

export interface EventConsumerOptions<TPayloads extends Record<string, unknown>> {
  kafka: Kafka;
  groupId: string;
  topic: TopicDefinition<TPayloads>;
  logger: Logger;
  /** Must be idempotent (use the inbox): a message can arrive more than once. */
  handle(event: EventOf<TopicDefinition<TPayloads>>): Promise<void>;
}

/**
 * Consumes one topic. A handler failure is not committed: kafkajs retries the message, so an
 * event is never skipped. Unknown event types on the topic are ignored (newer producers).
 */
export async function startEventConsumer<TPayloads extends Record<string, unknown>>(options: EventConsumerOptions<TPayloads>): Promise<Consumer> {
  // A member that died without leaving holds its partitions until its session times out; 10 s
  // (kafkajs defaults to 30 s) lets a restarted replica take over quickly.
  const consumer = options.kafka.consumer({ groupId: options.groupId, sessionTimeout: 10_000 });
  await consumer.connect();
  await consumer.subscribe({ topic: options.topic.name, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message, partition }) => {
      if (!message.value) return;
      const event = JSON.parse(message.value.toString('utf8')) as DomainEventEnvelope;
      if (!(options.topic.types as readonly string[]).includes(event.type)) {
        options.logger.debug({ type: event.type, topic: options.topic.name }, 'ignoring unknown event type');
        return;
      }
      options.logger.debug({ event_id: event.id, type: event.type, partition }, 'consuming event');
      await options.handle(event as EventOf<TopicDefinition<TPayloads>>);
    },
  });
  return consumer;
}
