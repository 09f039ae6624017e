import { createEventParser, type EventOf, type TopicDefinition } from '@ticketing/contracts';
import type { PrismaClient } from '../../src/db';

/**
 * The messages ticketing's outbox holds on `topic` about one event (its key), oldest first, each
 * checked as consumers check it (decision 0020): the envelope, and the payload against its type's
 * schema in the catalogue. A message that fails, or whose type the catalogue lacks, fails the
 * test with the field named; so does one keyed by another event than its payload's.
 */
export async function publishedOn<TTopic extends TopicDefinition>(prisma: PrismaClient, topic: TTopic, eventId: string): Promise<Array<EventOf<TTopic>>> {
  const parse = createEventParser(topic);
  const rows = await prisma.outboxMessage.findMany({ where: { topic: topic.name, message_key: eventId }, orderBy: { position: 'asc' } });
  return rows.map((row) => {
    const parsed = parse(row.payload);
    if (parsed.outcome !== 'valid') {
      const why = parsed.outcome === 'invalid' ? parsed.error : `its type ${parsed.type} is not in the catalogue`;
      throw new Error(`Outbox message ${row.id} on ${topic.name} is not as the catalogue says: ${why}\n${JSON.stringify(row.payload)}`);
    }
    const about = (parsed.event.data as { event_id?: unknown }).event_id;
    if (about !== eventId) throw new Error(`Outbox message ${row.id} on ${topic.name} is keyed by ${eventId} but is about ${String(about)}`);
    return parsed.event;
  });
}

/** The messages of one type among `messages`, typed as that type's. */
export function ofType<TEvent extends { type: string }, TType extends TEvent['type']>(messages: readonly TEvent[], type: TType): Array<Extract<TEvent, { type: TType }>> {
  return messages.filter((message): message is Extract<TEvent, { type: TType }> => message.type === type);
}
