import { z } from 'zod';
import { backendServiceEnv, databaseUrl, grpcAddress, grpcDeadlineMs, kafkaBrokers, loadConfig } from '@ticketing/config';

const ticketingEnv = z.object({
  ...backendServiceEnv('ticketing'),
  DATABASE_URL: databaseUrl('ticketing'),
  KAFKA_BROKERS: kafkaBrokers,
  /** Catalog, which owns the inventory tickets are issued from. */
  CATALOG_GRPC_URL: grpcAddress('catalog'),
  /** How long one call to catalog may take. */
  GRPC_DEADLINE_MS: grpcDeadlineMs,
  /** The outbox relay's pause between polls when no commit wakes it (decision 0028). */
  OUTBOX_POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(1_000),
  /** `false` behind a pooler that does not keep sessions: the relay then only polls. */
  OUTBOX_LISTEN: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
  /**
   * How often issuances left pending (a crash or a lost call midway) are driven on, and how
   * long one must have stood still first, so the re-driver does not race a request in flight.
   */
  REDRIVE_INTERVAL_MS: z.coerce.number().int().min(100).default(10_000),
  REDRIVE_AFTER_MS: z.coerce.number().int().min(0).default(30_000),
});

export type TicketingConfig = z.infer<typeof ticketingEnv>;

export function loadTicketingConfig(env: NodeJS.ProcessEnv = process.env): TicketingConfig {
  return loadConfig(ticketingEnv, env);
}
