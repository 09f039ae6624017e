import { z } from 'zod';
import { backendServiceEnv, databaseUrl, loadConfig, redisUrl } from '@ticketing/config';

const identityEnv = z.object({
  ...backendServiceEnv('identity'),
  DATABASE_URL: databaseUrl('identity'),
  /** Where revocations write their tombstone into the gateway's key cache. */
  REDIS_URL: redisUrl,
});

export type IdentityConfig = z.infer<typeof identityEnv>;

export function loadIdentityConfig(env: NodeJS.ProcessEnv = process.env): IdentityConfig {
  return loadConfig(identityEnv, env);
}
