import { z } from 'zod';
import { backendServiceEnv, databaseUrl, kafkaBrokers, loadConfig, secretWithDevelopmentDefault } from '@ticketing/config';

/** Seals the endpoints' signing secrets when none is configured: development and tests only. */
const DEVELOPMENT_SECRETS_KEY = 'ZGV2ZWxvcG1lbnQtb25seS13ZWJob29rLXNlY3JldHM=';

/** 32 bytes, base64: the AES-256-GCM key that seals endpoint secrets at rest (decision 0052). */
const secretsKey = secretWithDevelopmentDefault(z.string(), DEVELOPMENT_SECRETS_KEY).transform((value, context) => {
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) {
    context.addIssue({ code: 'custom', message: 'must be 32 bytes, base64-encoded (openssl rand -base64 32)' });
    return z.NEVER;
  }
  return key;
});

const webhooksEnv = z.object({
  ...backendServiceEnv('webhooks'),
  DATABASE_URL: databaseUrl('webhooks'),
  KAFKA_BROKERS: kafkaBrokers,
  /** Consumer group of this service; every replica shares it. */
  KAFKA_GROUP_ID: z.string().min(1).default('webhooks'),
  WEBHOOK_SECRETS_KEY: secretsKey,
  /**
   * Lets test-mode endpoints use http://127.0.0.1 (and ::1, localhost), for local development
   * and tests. On by default except under NODE_ENV=production; never applies to live mode.
   */
  WEBHOOK_ALLOW_LOCAL_HTTP: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => (value === undefined ? process.env.NODE_ENV !== 'production' : value === 'true')),
});

export type WebhooksConfig = z.infer<typeof webhooksEnv>;

export function loadWebhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  return loadConfig(webhooksEnv, env);
}
