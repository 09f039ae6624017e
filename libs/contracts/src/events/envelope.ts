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

/** The event types a payload map names, without the index signature it extends. */
type EventTypes<P> = keyof { [K in keyof P as string extends K ? never : K]: P[K] } & string;

/** Every envelope a topic can carry, as a union discriminated by `type`. */
export type EventOf<TTopic> = TTopic extends TopicDefinition<infer P> ? { [K in EventTypes<P>]: DomainEventEnvelope<K, P[K]> }[EventTypes<P>] : never;
