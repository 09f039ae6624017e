import type { RawSqlClient } from '@ticketing/db';

/**
 * The consumer side of exactly-once effects: inside the transaction that applies an event,
 * `recordFirstDelivery` inserts (consumer, message id); a redelivery finds the row and the
 * caller skips it. The `inbox_messages` table belongs to this library: every consuming service
 * creates it in a migration as (consumer TEXT, message_id TEXT, processed_at TIMESTAMPTZ DEFAULT
 * now(), PRIMARY KEY (consumer, message_id)).
 */
/** True the first time this consumer sees the message; false for a redelivery. */
export async function recordFirstDelivery(tx: RawSqlClient, consumer: string, messageId: string): Promise<boolean> {
  const inserted = await tx.$executeRaw`INSERT INTO inbox_messages (consumer, message_id)
    VALUES (${consumer}, ${messageId}) ON CONFLICT DO NOTHING`;
  return inserted === 1;
}
