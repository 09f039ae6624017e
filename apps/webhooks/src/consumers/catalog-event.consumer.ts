import type { Kafka } from 'kafkajs';
import { CATALOG_EVENT_TOPIC } from '@ticketing/contracts';
import { startEventConsumer } from '@ticketing/kafka';
import type { Logger } from '@ticketing/observability';
import type { RecordNotificationUseCase } from '../usecases/record-notification/record-notification.usecase';

/** Inbox name of this consumer: fixed, so a new consumer group never re-applies old events. */
export const CATALOG_EVENT_INBOX = 'webhooks.catalog-event';

/** Catalog's event changes become notifications (deliveries to endpoints come later). */
export function startCatalogEventConsumer(kafka: Kafka, groupId: string, recordNotification: RecordNotificationUseCase, logger: Logger) {
  return startEventConsumer({
    kafka,
    groupId,
    topic: CATALOG_EVENT_TOPIC,
    logger,
    handle: async (event, context) => {
      const created = await recordNotification.execute(event);
      context.logger.info({ duplicate: !created }, 'catalog event recorded');
    },
  });
}
