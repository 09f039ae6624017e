import { z } from 'zod';
import { backendServiceEnv, databaseUrl, kafkaBrokers, loadConfig } from '@ticketing/config';

const webhooksEnv = z.object({
  ...backendServiceEnv('webhooks'),
  DATABASE_URL: databaseUrl('webhooks'),
  KAFKA_BROKERS: kafkaBrokers,
  /** Consumer group of this service; every replica shares it. */
  KAFKA_GROUP_ID: z.string().min(1).default('webhooks'),
});

export type WebhooksConfig = z.infer<typeof webhooksEnv>;

export function loadWebhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  return loadConfig(webhooksEnv, env);
}
