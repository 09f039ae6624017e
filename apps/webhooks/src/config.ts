import { z } from 'zod';
import { backendServiceEnv, databaseUrl, kafkaBrokers, loadConfig, secretWithDevelopmentDefault } from '@ticketing/config';
import { DEFAULT_RETRY_DELAYS_MS } from './domain/retry-schedule';

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

/** Milliseconds, comma-separated: the pauses between a delivery's attempts. */
const retryDelays = z
  .string()
  .optional()
  .transform((value, context) => {
    if (value === undefined) return DEFAULT_RETRY_DELAYS_MS;
    const delays = value.split(',').map((part) => Number(part.trim()));
    if (delays.some((delay) => !Number.isInteger(delay) || delay < 0)) {
      context.addIssue({ code: 'custom', message: 'must be whole milliseconds separated by commas, such as 5000,300000' });
      return z.NEVER;
    }
    return delays;
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
  /** An attempt without a complete answer after this long fails (decision 0053). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(5_000),
  /** The pauses after each failed attempt; the default is Svix's schedule, about a day. Tests shorten it. */
  WEBHOOK_RETRY_DELAYS_MS: retryDelays,
  /** An endpoint whose every attempt failed for this long is disabled; 5 days by default. */
  WEBHOOK_DISABLE_AFTER_MS: z.coerce.number().int().min(0).default(5 * 24 * 3600_000),
  /** Attempts in flight at once in one process. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).default(200),
  /** Attempts in flight at once to one endpoint, from one process: a slow endpoint holds no more of the slots. */
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).default(20),
});

export type WebhooksConfig = z.infer<typeof webhooksEnv>;

export function loadWebhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  return loadConfig(webhooksEnv, env);
}
