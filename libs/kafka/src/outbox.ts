import type { DomainEventEnvelope, EventTypeOf, PayloadsOf, TopicDefinition } from '@ticketing/contracts';
import type { Tenant } from '@ticketing/auth';
import type { RawSqlClient } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { currentRequestId } from '@ticketing/observability';

/**
 * The transactional outbox. A use case writes its state change and `enqueueEvent(tx, ...)` in
 * one database transaction; the relay publishes later. The `outbox_messages` table belongs to
 * this library: every publishing service creates it in a migration with exactly these columns:
 *   position BIGSERIAL PRIMARY KEY, id TEXT UNIQUE, topic TEXT, message_key TEXT, payload JSONB,
 *   created_at TIMESTAMPTZ DEFAULT now(), published_at TIMESTAMPTZ (NULL until published),
 *   claimed_by TEXT, claimed_until TIMESTAMPTZ (a relay's lease, see outbox-claims.ts),
 * and the index (position) WHERE published_at IS NULL. The relay deletes what it published once
 * the retention has passed (decision 0059).
 */
/** An event a use case publishes, typed by its topic's catalogue of event types and payloads. */
export interface OutgoingEvent<TTopic extends TopicDefinition, TType extends EventTypeOf<TTopic>> {
  topic: TTopic;
  type: TType;
  /** The aggregate the event is about: the Kafka key, so its events stay ordered. */
  aggregateId: string;
  tenant: Tenant;
  data: PayloadsOf<TTopic>[TType];
}

/** An `outbox_messages` row: the event in its envelope, keyed for Kafka. */
export interface OutboxRow<TEnvelope> {
  id: string;
  topic: string;
  messageKey: string;
  envelope: TEnvelope;
  /** The envelope as the `payload` column's JSON text. */
  payload: string;
}

/**
 * The row that enqueues `event`, stamped with the request being served (if any), for a caller
 * that writes it in a statement of its own (one that changes its state and enqueues at once).
 */
export function outboxRow<TTopic extends TopicDefinition, TType extends EventTypeOf<TTopic>>(
  event: OutgoingEvent<TTopic, TType>,
): OutboxRow<DomainEventEnvelope<TType, PayloadsOf<TTopic>[TType]>> {
  const envelope: DomainEventEnvelope<TType, PayloadsOf<TTopic>[TType]> = {
    id: newId('msg'),
    type: event.type,
    account_id: event.tenant.accountId,
    mode: event.tenant.mode,
    occurred_at: new Date().toISOString(),
    request_id: currentRequestId(),
    data: event.data,
  };
  return { id: envelope.id, topic: event.topic.name, messageKey: event.aggregateId, envelope, payload: JSON.stringify(envelope) };
}

/** Writes the event in the caller's transaction, stamped with the request being served (if any). */
export async function enqueueEvent<TTopic extends TopicDefinition, TType extends EventTypeOf<TTopic>>(
  tx: RawSqlClient,
  event: OutgoingEvent<TTopic, TType>,
): Promise<DomainEventEnvelope<TType, PayloadsOf<TTopic>[TType]>> {
  const row = outboxRow(event);
  await tx.$executeRaw`INSERT INTO outbox_messages (id, topic, message_key, payload) VALUES (${row.id}, ${row.topic}, ${row.messageKey}, ${row.payload}::jsonb)`;
  return row.envelope;
}
