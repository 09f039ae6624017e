import type { DomainEventEnvelope, TopicDefinition } from '@ticketing/contracts';
import type { Tenant } from '@ticketing/auth';
import { newId } from '@ticketing/ids';

/**
 * The transactional outbox. A use case writes its state change and `enqueueEvent(tx, ...)` in
 * one database transaction; the relay publishes later. The `outbox_messages` table belongs to
 * this library: every publishing service creates it in a migration with exactly these columns:
 *   position BIGSERIAL PRIMARY KEY, id TEXT UNIQUE, topic TEXT, message_key TEXT, payload JSONB,
 *   created_at TIMESTAMPTZ DEFAULT now(), published_at TIMESTAMPTZ (NULL until published).
 */
/** Any Prisma client or interactive-transaction client. */
export interface RawSqlExecutor {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number>;
}

export interface OutgoingEvent<TPayloads extends Record<string, unknown>, TType extends keyof TPayloads & string> {
  topic: TopicDefinition<TPayloads>;
  type: TType;
  /** The aggregate the event is about: the Kafka key, so its events stay ordered. */
  aggregateId: string;
  tenant: Tenant;
  data: TPayloads[TType];
}

export async function enqueueEvent<TPayloads extends Record<string, unknown>, TType extends keyof TPayloads & string>(
  tx: RawSqlExecutor,
  event: OutgoingEvent<TPayloads, TType>,
): Promise<DomainEventEnvelope<TType, TPayloads[TType]>> {
  const envelope: DomainEventEnvelope<TType, TPayloads[TType]> = {
    id: newId('msg'),
    type: event.type,
    account_id: event.tenant.accountId,
    mode: event.tenant.mode,
    occurred_at: new Date().toISOString(),
    data: event.data,
  };
  await tx.$executeRaw`INSERT INTO outbox_messages (id, topic, message_key, payload)
    VALUES (${envelope.id}, ${event.topic.name}, ${event.aggregateId}, ${JSON.stringify(envelope)}::jsonb)`;
  return envelope;
}
