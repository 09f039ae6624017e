import { Kafka, logLevel, Partitioners, type LogEntry, type Producer } from 'kafkajs';
import type { Logger } from '@ticketing/observability';
import './request-queue-idle-fix';

type LoggerLevel = 'error' | 'warn' | 'info' | 'debug';

const LEVELS: Record<number, LoggerLevel> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * What kafkajs reports as an error while a consumer group changes members, every time a consumer
 * starts, stops or is restarted: it rejoins by itself, and nothing is lost. Logged at info, so
 * that an alert on error lines does not fire on every deploy (a probe of rolling restarts found
 * them the only error lines of a clean run).
 */
const GROUP_MEMBERSHIP_CHURN = [
  'The group is rebalancing, so a rejoin is needed',
  'The coordinator is not aware of this member',
  'The coordinator is loading and hence can\'t process requests',
  'This is not the correct coordinator for this group',
];

/** The service logger's level for a kafkajs log entry. */
export function kafkaLogLevel(level: logLevel, log: { message?: string; error?: unknown }): LoggerLevel {
  const text = `${typeof log.error === 'string' ? log.error : ''} ${log.message ?? ''}`;
  if (level === logLevel.ERROR && GROUP_MEMBERSHIP_CHURN.some((churn) => text.includes(churn))) return 'info';
  return LEVELS[level] ?? 'info';
}

/** A kafkajs client whose own logging goes through the service's JSON logger. */
export function createKafka(options: { clientId: string; brokers: string[]; logger: Logger }): Kafka {
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ namespace, level, log }: LogEntry) => {
        // kafkajs's own timestamp would duplicate the logger's.
        const { message, timestamp: _timestamp, ...extra } = log;
        options.logger[kafkaLogLevel(level, log)]({ kafka: namespace, ...extra }, message);
      },
  });
}

/**
 * The producer every relay uses: idempotent (no duplicates from its own retries, order kept per
 * partition) with the murmur2 partitioner, so a key always maps to the same partition.
 */
export function createProducer(kafka: Kafka): Producer {
  return kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
}
