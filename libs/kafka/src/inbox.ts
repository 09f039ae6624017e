import type { RawSqlClient } from '@ticketing/db';

/**
 * The consumer side of exactly-once effects: inside the transaction that applies an event,
 * `recordFirstDelivery` inserts (consumer, message id); a redelivery finds the row and the
 * caller skips it. The `inbox_messages` table belongs to this library: every consuming service
 * creates it in a migration as (consumer TEXT, message_id TEXT, processed_at TIMESTAMPTZ DEFAULT
 * now(), PRIMARY KEY (consumer, message_id)).
 */
/**
 * How long the rest of an inbox transaction may wait for a lock. A lock held elsewhere for long
 * stalled the partition behind the message, with no retry and no dead letter, for as long as it
 * was held (a black-box probe held one 65 s): Prisma's transaction timeout does not interrupt a
 * statement that waits. Past this, the statement fails, and the consumer retries the message
 * with backoff, then dead-letters it (decision 0020).
 */
export const INBOX_LOCK_TIMEOUT = '5s';

/**
 * True the first time this consumer sees the message; false for a redelivery. The same
 * statement bounds the transaction's waits for locks to INBOX_LOCK_TIMEOUT.
 */
export async function recordFirstDelivery(tx: RawSqlClient, consumer: string, messageId: string): Promise<boolean> {
  const inserted = await tx.$executeRaw`INSERT INTO inbox_messages (consumer, message_id)
    SELECT ${consumer}, ${messageId} FROM (SELECT set_config('lock_timeout', ${INBOX_LOCK_TIMEOUT}, true)) AS bounded_waits
    ON CONFLICT DO NOTHING`;
  return inserted === 1;
}
