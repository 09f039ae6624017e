import { readEndpoints } from './endpoints';
import { ensureKafka, stopBroker } from './kafka';
import { ensurePostgres } from './postgres';
import { ensureRedis } from './redis';

export interface InfrastructureHandle {
  started: string[];
  stop(): Promise<void>;
}

/**
 * Makes PostgreSQL, Redis and Kafka reachable, starting only what is not (see infra/README.md).
 * Safe to call from several processes at once.
 */
export async function ensureInfrastructure(options: { log?: (line: string) => void } = {}): Promise<InfrastructureHandle> {
  const log = options.log ?? (() => undefined);
  const endpoints = readEndpoints();
  const started: string[] = [];

  if (await ensurePostgres(endpoints.postgresUrl, log)) started.push('postgres');
  if (await ensureRedis(endpoints.redisUrl, log)) started.push('redis');
  const kafkaPid = await ensureKafka(endpoints.kafkaBrokers, log);
  if (kafkaPid !== undefined) started.push('kafka');

  return {
    started,
    async stop() {
      // PostgreSQL and Redis are shared system services that other processes may already be
      // using, so they stay up even when this call started them; only our own broker goes.
      if (kafkaPid !== undefined) await stopBroker(kafkaPid);
    },
  };
}
