import { z } from 'zod';
import { firstUnstorableText } from '@ticketing/fields';
import { eventEnvelopeSchema, type EventOf, type TopicDefinition } from './envelope';

/** What a consumer learns from one message body checked against its topic's catalogue. */
export type ParsedEvent<TTopic extends TopicDefinition> =
  | { outcome: 'valid'; event: EventOf<TTopic> }
  /** A valid envelope of a type this topic definition does not know (yet): a newer producer. */
  | { outcome: 'unknown_type'; type: string }
  | { outcome: 'invalid'; error: string };

/**
 * Returns a checker of message bodies (already JSON-decoded) for one topic: the envelope and the
 * payload of its type, with errors that name the failing field (`data.seat_ids: …`).
 */
export function createEventParser<TTopic extends TopicDefinition>(topic: TTopic): (body: unknown) => ParsedEvent<TTopic> {
  const schemas = new Map<string, z.ZodType>(
    Object.entries(topic.payloads).map(([type, payload]) => [type, eventEnvelopeSchema.extend({ type: z.literal(type), data: payload })]),
  );
  return (body) => {
    const envelope = eventEnvelopeSchema.safeParse(body);
    if (!envelope.success) return { outcome: 'invalid', error: z.prettifyError(envelope.error) };
    // Text no consumer's database can store (a NUL, a lone surrogate) is as invalid as a wrong
    // type: retried, it could only fail again.
    const unstorable = firstUnstorableText(body);
    if (unstorable) return { outcome: 'invalid', error: `✖ ${unstorable.why}\n  → at ${unstorable.path.map(String).join('.')}` };
    const schema = schemas.get(envelope.data.type);
    if (!schema) return { outcome: 'unknown_type', type: envelope.data.type };
    const event = schema.safeParse(body);
    if (!event.success) return { outcome: 'invalid', error: z.prettifyError(event.error) };
    return { outcome: 'valid', event: event.data as EventOf<TTopic> };
  };
}
