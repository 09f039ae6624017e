import type { Kafka } from 'kafkajs';
import { TICKETING_SEAT_TOPIC } from '@ticketing/contracts';
import { startEventConsumer } from '@ticketing/kafka';
import type { Logger } from '@ticketing/observability';
import type { RecordSeatChangeUseCase } from '../usecases/record-seat-change/record-seat-change.usecase';

/** Inbox name of this consumer: fixed, so a new consumer group never re-applies old events. */
export const SEAT_CHANGE_INBOX = 'catalog.seat-change';

/** Ticketing's seat holds, releases and sales become the seat statuses of catalog's seat maps. */
export function startSeatChangeConsumer(kafka: Kafka, groupId: string, recordSeatChange: RecordSeatChangeUseCase, logger: Logger) {
  return startEventConsumer({
    kafka,
    groupId,
    topic: TICKETING_SEAT_TOPIC,
    logger,
    handle: async (change, context) => {
      const applied = await recordSeatChange.execute(change);
      context.logger.info({ duplicate: !applied }, 'seat change recorded');
    },
  });
}
