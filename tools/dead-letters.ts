/**
 * Operators' tool for dead letters (decision 0020), against the Kafka of KAFKA_BROKERS:
 *
 *   npm run --silent dead-letters -- list <topic>     the letters of <topic>.dlq not replayed yet
 *   npm run --silent dead-letters -- replay <topic>   republishes them to their topics, once their cause is fixed
 *
 * Each letter goes to stdout as one JSON line (why it was dead-lettered, where from, its event's
 * id and type); a summary line goes to stderr.
 */
import { z } from 'zod';
import { kafkaBrokers, loadConfig } from '@ticketing/config';
import { createKafka, listDeadLetters, replayDeadLetters } from '@ticketing/kafka';
import { createLogger } from '@ticketing/observability';

const USAGE = 'usage: npm run --silent dead-letters -- list|replay <topic>   (for example: replay catalog.event.v1)';

async function main([command, topic, ...rest]: string[]): Promise<number> {
  if ((command !== 'list' && command !== 'replay') || !topic || rest.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const { KAFKA_BROKERS } = loadConfig(z.object({ KAFKA_BROKERS: kafkaBrokers }));
  const kafka = createKafka({ clientId: 'dead-letters', brokers: KAFKA_BROKERS, logger: createLogger('dead-letters', 'error') });
  const pass = await (command === 'list' ? listDeadLetters(kafka, topic) : replayDeadLetters(kafka, topic));
  for (const letter of pass.letters) process.stdout.write(`${JSON.stringify(letter)}\n`);
  process.stderr.write(`${pass.letters.length} letter(s) of ${pass.deadLetterTopic} ${command === 'list' ? 'not replayed yet' : 'replayed'}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`dead-letters: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
