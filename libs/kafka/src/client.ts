import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import type { Logger } from '@ticketing/observability';

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
        const { message, ...extra } = log;
        options.logger[levels[level] ?? 'info']({ kafka: namespace, ...extra }, message);
      },
  });
}
