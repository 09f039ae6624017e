import { Client, type ClientBase } from 'pg';
import type { Kafka } from 'kafkajs';
import type { Logger } from '@ticketing/observability';
import { createEmptyTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createKafka } from '../../src/client';
import type { RawSqlClient } from '@ticketing/db';
import { OUTBOX_CHANNEL } from '../../src/outbox-listener';

/** The library's two tables and the outbox's commit trigger, as every service's migrations create them (outbox.ts, inbox.ts, outbox-listener.ts). */
const TABLES_SQL = `
  CREATE TABLE outbox_messages (position BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, topic TEXT NOT NULL,
    message_key TEXT NOT NULL, payload JSONB NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now(), published_at TIMESTAMPTZ,
    claimed_by TEXT, claimed_until TIMESTAMPTZ);
  CREATE INDEX outbox_messages_unpublished ON outbox_messages (position) WHERE published_at IS NULL;
  CREATE FUNCTION notify_outbox_relay() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('${OUTBOX_CHANNEL}', ''); RETURN NULL; END $$;
  CREATE TRIGGER outbox_messages_notify AFTER INSERT ON outbox_messages FOR EACH STATEMENT EXECUTE FUNCTION notify_outbox_relay();
  CREATE TABLE inbox_messages (consumer TEXT NOT NULL, message_id TEXT NOT NULL,
    processed_at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (consumer, message_id));`;

export interface KafkaTestDatabase extends TestDatabase {
  /** A connection of the test's own. */
  db: Client;
}

/** A fresh database with the outbox and inbox tables, for one test file. */
export async function createKafkaTestDatabase(): Promise<KafkaTestDatabase> {
  const database = await createEmptyTestDatabase('kafka_test');
  const db = new Client({ connectionString: database.url });
  await db.connect();
  await db.query(TABLES_SQL);
  return {
    ...database,
    db,
    drop: async () => {
      await db.end();
      await database.drop();
    },
  };
}

/** Prisma's raw tagged templates over a plain pg client, run as Prisma would run them. */
export function rawSqlClient(client: ClientBase): RawSqlClient {
  const run = (query: TemplateStringsArray, values: unknown[]) => client.query(query.reduce((sql, part, index) => `${sql}$${index}${part}`), values);
  return {
    $executeRaw: async (query, ...values) => (await run(query, values)).rowCount ?? 0,
    $queryRaw: async <T>(query: TemplateStringsArray, ...values: unknown[]) => (await run(query, values)).rows as T,
  };
}

export const TEST_BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');

export function createTestKafka(clientId: string, logger: Logger): Kafka {
  return createKafka({ clientId, brokers: TEST_BROKERS, logger });
}
