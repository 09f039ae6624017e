/** The one shape of every message on Kafka. The message key is the aggregate id. */
export interface DomainEventEnvelope<TType extends string = string, TData = unknown> {
  id: string;
  type: TType;
  account_id: string;
  mode: 'test' | 'live';
  occurred_at: string;
  data: TData;
}

/** A topic and the event types that travel on it, with each type's payload. */
export interface TopicDefinition<TPayloads extends Record<string, unknown>> {
  readonly name: string;
  readonly types: ReadonlyArray<keyof TPayloads & string>;
  /** Compile-time only: carries the payload map. */
  readonly payloads?: TPayloads;
}

export type EventOf<TTopic> =
  TTopic extends TopicDefinition<infer P>
    ? { [K in keyof P & string]: DomainEventEnvelope<K, P[K]> }[keyof P & string]
    : never;
