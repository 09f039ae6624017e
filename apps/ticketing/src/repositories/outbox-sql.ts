import type { OutboxRow } from '@ticketing/kafka';
import { Prisma } from '../generated/prisma/client';

/**
 * `INSERT … SELECT` of `message` into the outbox, for a statement that changes state and
 * enqueues at once: follow it with the FROM (a CTE of the changed rows) that makes it happen once.
 */
export const enqueue = (message: OutboxRow<unknown>) =>
  Prisma.sql`INSERT INTO outbox_messages (id, topic, message_key, payload) SELECT ${message.id}, ${message.topic}, ${message.messageKey}, ${message.payload}::jsonb`;
