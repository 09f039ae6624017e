import { z } from 'zod';
import { backendServiceEnv, databaseUrl, kafkaBrokers, loadConfig, redisUrl } from '@ticketing/config';

const catalogEnv = z.object({
  ...backendServiceEnv('catalog'),
  DATABASE_URL: databaseUrl('catalog'),
  KAFKA_BROKERS: kafkaBrokers,
  /** Where catalog replaces each tenant's read generation after a write, for the gateways' read caches (decision 0051). */
  REDIS_URL: redisUrl,
  /** Consumer group of this service; every replica shares it. */
  KAFKA_GROUP_ID: z.string().min(1).default('catalog'),
  /**
   * The outbox relay's pause between polls when no commit wakes it: a commit that writes outbox
   * rows wakes it at once (LISTEN/NOTIFY), so this only bounds the wait for a missed wake-up.
   */
  OUTBOX_POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(1_000),
  /** `false` when the database is reached through a pooler that does not keep sessions: LISTEN cannot work there, the relay only polls. */
  OUTBOX_LISTEN: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
  /**
   * How often expired inventory reservations are released, giving their units back: a buyer
   * or a caller that vanished holds units at most this long past the reservation's expiry.
   */
  RESERVATION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(5_000),
  /** Test only: holds every gRPC reply this long after its commit, for crash tests (0: off). */
  REPLY_DELAY_MS: z.coerce.number().int().min(0).default(0),
});

export type CatalogConfig = z.infer<typeof catalogEnv>;

export function loadCatalogConfig(env: NodeJS.ProcessEnv = process.env): CatalogConfig {
  return loadConfig(catalogEnv, env);
}
