import { z } from 'zod';
import { isStorableInstant } from '@ticketing/fields';

/**
 * An instant as producers write it (`Date#toISOString()`); an explicit offset is accepted too.
 * Years 0001 to 9999 only, as PostgreSQL stores them: a message of year 0000 passed, then failed
 * every attempt to store it, and was dead-lettered as a handler's failure rather than as invalid.
 */
export const eventTimestamp = z.iso.datetime({ offset: true }).refine((value) => isStorableInstant(Date.parse(value)), 'must be an instant from year 0001 to 9999');

/**
 * The one shape of every message on Kafka; the message key is the aggregate id. `data` is
 * checked against its type's schema in the topic definition.
 */
export const eventEnvelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  account_id: z.string().min(1),
  mode: z.enum(['test', 'live']),
  occurred_at: eventTimestamp,
  /** The API request that caused the event, for following it through logs; absent when no request did. */
  request_id: z.string().min(1).optional(),
  data: z.unknown(),
});

export type DomainEventEnvelope<TType extends string = string, TData = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'type' | 'data'> & {
  type: TType;
  data: TData;
};

/** Per event type, the schema of its `data`. */
export type PayloadSchemas = Record<string, z.ZodType>;

/** A topic and the event types that travel on it, each with the schema of its payload. */
export interface TopicDefinition<TSchemas extends PayloadSchemas = PayloadSchemas> {
  readonly name: string;
  readonly payloads: TSchemas;
}

/** The schemas are the single source: payload types are inferred from them, never written twice. */
export function defineTopic<TSchemas extends PayloadSchemas>(name: string, payloads: TSchemas): TopicDefinition<TSchemas> {
  return { name, payloads };
}

/** The event types a topic carries. */
export type EventTypeOf<TTopic extends TopicDefinition> = keyof TTopic['payloads'] & string;

/** Each event type of a topic mapped to its payload type. */
export type PayloadsOf<TTopic extends TopicDefinition> = { [K in EventTypeOf<TTopic>]: z.output<TTopic['payloads'][K]> };

/** Every envelope a topic can carry, as a union discriminated by `type`. */
export type EventOf<TTopic extends TopicDefinition> = { [K in EventTypeOf<TTopic>]: DomainEventEnvelope<K, PayloadsOf<TTopic>[K]> }[EventTypeOf<TTopic>];
