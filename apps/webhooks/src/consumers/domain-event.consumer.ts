import type { Kafka } from 'kafkajs';
import type { TopicDefinition } from '@ticketing/contracts';
import { startEventConsumer, type EventConsumer } from '@ticketing/kafka';
import type { Logger } from '@ticketing/observability';
import type { RecordNotificationUseCase } from '../usecases/record-notification/record-notification.usecase';

/**
 * The consumer of one topic of domain events that webhooks deliver (WEBHOOK_TOPICS), in a group of
 * its own per topic (`<group>.<topic>`, which every replica's consumer of that topic shares): a
 * kafkajs group assumes its members subscribe alike. Each event an endpoint subscribes to becomes
 * a notification and its deliveries; `scheduled` hears of new deliveries at once.
 */
export function startDomainEventConsumer(
  kafka: Kafka,
  groupPrefix: string,
  topic: TopicDefinition,
  recordNotification: RecordNotificationUseCase,
  scheduled: () => void,
  logger: Logger,
): Promise<EventConsumer> {
  /** Each event's line, with its request id: the trail a request leaves through every consumer (`deliveries: 0`: no endpoint subscribes). */
  const logRecorded = (logger: Logger, deliveries: number | null) => logger.info({ duplicate: deliveries === null, deliveries: deliveries ?? 0 }, 'domain event handled');
  return startEventConsumer({
    kafka,
    groupId: `${groupPrefix}.${topic.name}`,
    topic,
    logger,
    handle: async (event, context) => {
      const deliveries = await recordNotification.execute(event);
      if (deliveries) scheduled();
      logRecorded(context.logger, deliveries);
    },
    // A fetch's events in one statement: every sale is an event here, endpoint or not.
    handleBatch: async (events) => {
      const recorded = await recordNotification.executeBatch(events.map(({ event }) => event));
      if (recorded.some((deliveries) => deliveries)) scheduled();
      events.forEach(({ logger }, index) => logRecorded(logger, recorded[index]!));
    },
  });
}
