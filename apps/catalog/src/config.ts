import { z } from 'zod';
import { backendServiceEnv, databaseUrl, kafkaBrokers, loadConfig } from '@ticketing/config';

const catalogEnv = z.object({
  ...backendServiceEnv('catalog'),
  DATABASE_URL: databaseUrl('catalog'),
  KAFKA_BROKERS: kafkaBrokers,
  /** Consumer group of this service; every replica shares it. */
  KAFKA_GROUP_ID: z.string().min(1).default('catalog'),
  /** How often the outbox relay looks for committed events when it has nothing to publish. */
  OUTBOX_POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(100),
  /** Test only: holds every gRPC reply this long after its commit, for crash tests (0: off). */
  REPLY_DELAY_MS: z.coerce.number().int().min(0).default(0),
});

export type CatalogConfig = z.infer<typeof catalogEnv>;

export function loadCatalogConfig(env: NodeJS.ProcessEnv = process.env): CatalogConfig {
  return loadConfig(catalogEnv, env);
}
