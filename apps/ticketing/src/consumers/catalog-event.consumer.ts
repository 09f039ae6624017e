import type { Kafka } from 'kafkajs';
import { CATALOG_EVENT_TOPIC } from '@ticketing/contracts';
import { startEventConsumer } from '@ticketing/kafka';
import type { Logger } from '@ticketing/observability';
import type { RecordEventSettingsUseCase } from '../usecases/record-event-settings/record-event-settings.usecase';

/** Inbox name of this consumer: fixed, so a new consumer group never re-applies old events. */
export const EVENT_SETTINGS_INBOX = 'ticketing.event-settings';

/** Catalog's event messages become ticketing's copy of each event's status and waiting room. */
export function startCatalogEventConsumer(kafka: Kafka, groupId: string, recordEventSettings: RecordEventSettingsUseCase, logger: Logger) {
  return startEventConsumer({
    kafka,
    groupId,
    topic: CATALOG_EVENT_TOPIC,
    logger,
    handle: async (change, context) => {
      const applied = await recordEventSettings.execute(change);
      if (applied) context.logger.info('event settings recorded');
    },
  });
}
