import { logLevel } from 'kafkajs';
import { kafkaLogLevel } from './client';

describe('kafkaLogLevel', () => {
  it('logs the errors of a consumer group changing members at info: the consumer rejoins by itself', () => {
    expect(kafkaLogLevel(logLevel.ERROR, { message: 'Response Heartbeat(key: 12, version: 3)', error: 'The group is rebalancing, so a rejoin is needed' })).toBe('info');
    expect(kafkaLogLevel(logLevel.ERROR, { message: 'The coordinator is not aware of this member, re-joining the group' })).toBe('info');
  });

  it('keeps every other entry at its own level', () => {
    expect(kafkaLogLevel(logLevel.ERROR, { message: 'Crash: KafkaJSNumberOfRetriesExceeded', error: 'Connection refused' })).toBe('error');
    expect(kafkaLogLevel(logLevel.WARN, { message: 'The group is rebalancing, so a rejoin is needed' })).toBe('warn');
    expect(kafkaLogLevel(logLevel.INFO, { message: 'Consumer has joined the group' })).toBe('info');
  });
});
