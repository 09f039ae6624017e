import type { Kafka } from 'kafkajs';
import type { TopicDefinition } from '@ticketing/contracts';
import { startEventConsumer, type EventConsumer } from '@ticketing/kafka';
import type { Logger } from '@ticketing/observability';
import type { RecordNotificationUseCase } from '../usecases/record-notification/record-notification.usecase';

/**
 * The consumer of one topic of domain events that webhooks deliver (WEBHOOK_TOPICS), in a group of
 * its own per topic (`<group>.<topic>`, which every replica's consumer of that topic shares): a
 * kafkajs group assumes its members subscribe alike. Each event becomes a notification and its
 * deliveries; `scheduled` hears of new deliveries at once.
 */
export function startDomainEventConsumer(
  kafka: Kafka,
  groupPrefix: string,
  topic: TopicDefinition,
  recordNotification: RecordNotificationUseCase,
  scheduled: () => void,
  logger: Logger,
): Promise<EventConsumer> {
  return startEventConsumer({
    kafka,
    groupId: `${groupPrefix}.${topic.name}`,
    topic,
    logger,
    handle: async (event, context) => {
      const deliveries = await recordNotification.execute(event);
      if (deliveries) scheduled();
      context.logger.info({ duplicate: deliveries === null, deliveries: deliveries ?? 0 }, 'domain event recorded');
    },
  });
}
