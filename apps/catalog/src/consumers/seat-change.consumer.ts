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
      const outcome = await recordSeatChange.execute(change);
      if (outcome === 'applied') context.logger.info('seat change recorded');
      else if (outcome === 'redelivery') context.logger.info('seat change already recorded: a redelivery');
      // Misrouted or forged: it names an event its account and mode do not have, and changes no seat.
      else context.logger.warn({ event_id: change.data.event_id }, 'seat change refused: its account and mode have no such event');
    },
  });
}
