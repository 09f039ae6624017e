import { Kafka, logLevel, Partitioners, type LogEntry, type Producer } from 'kafkajs';
import type { Logger } from '@ticketing/observability';
import './request-queue-idle-fix';

/** A kafkajs client whose own logging goes through the service's JSON logger. */
export function createKafka(options: { clientId: string; brokers: string[]; logger: Logger }): Kafka {
  const levels: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
    [logLevel.ERROR]: 'error',
    [logLevel.WARN]: 'warn',
    [logLevel.INFO]: 'info',
    [logLevel.DEBUG]: 'debug',
  };
  return new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ namespace, level, log }: LogEntry) => {
        // kafkajs's own timestamp would duplicate the logger's.
        const { message, timestamp: _timestamp, ...extra } = log;
        options.logger[levels[level] ?? 'info']({ kafka: namespace, ...extra }, message);
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
