import type { GatewayConfig } from '../config';
import type { Route } from '../routes/route';

/** The counters the gateway keeps, each with its own limit and window (docs/decisions/0021). */
export const BUCKETS = ['account', 'scanning', 'key_minting', 'public', 'failed_authentication'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** The buckets a keyed operation draws on: exactly one each. */
export type KeyBucket = Extract<Bucket, 'account' | 'scanning' | 'key_minting'>;

/** Requests allowed per fixed window, the window starting at the first request counted. */
export interface Budget {
  points: number;
  windowSeconds: number;
}

export interface RateLimitSettings {
  budgets: Record<Bucket, Budget>;
  /** Prefix of every counter's Redis key: gateways that share it count together. */
  redisPrefix: string;
}

export function rateLimitSettings(config: GatewayConfig): RateLimitSettings {
  return {
    budgets: {
      account: { points: config.RATE_LIMIT_PER_SECOND, windowSeconds: 1 },
      scanning: { points: config.RATE_LIMIT_SCANNING_PER_SECOND, windowSeconds: 1 },
      key_minting: { points: config.RATE_LIMIT_KEY_MINTING_PER_MINUTE, windowSeconds: 60 },
      public: { points: config.RATE_LIMIT_PUBLIC_PER_SECOND, windowSeconds: 1 },
      failed_authentication: { points: config.RATE_LIMIT_FAILED_AUTH_PER_MINUTE, windowSeconds: 60 },
    },
    redisPrefix: 'ratelimit',
  };
}

/**
 * Door scanning is what a scanning:write key does; it gets its own budget so a rush at the doors
 * never starves the account's API traffic, nor the reverse. Minting keys has a stricter one.
 */
export function bucketOf(route: Route): KeyBucket {
  if (route.method === 'post' && route.path === '/v1/account/keys') return 'key_minting';
  if (route.access.kind !== 'public' && route.access.scope === 'scanning:write') return 'scanning';
  return 'account';
}
