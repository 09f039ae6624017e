import type { JsonWebKey } from 'node:crypto';
import { z } from 'zod';
import { backendServiceEnv, DEFAULT_PORTS, databaseUrl, grpcAddress, grpcDeadlineMs, kafkaBrokers, loadConfig, port, redisUrl, secretWithDevelopmentDefault } from '@ticketing/config';

/**
 * The key that signs ticket codes when none is configured: development and tests only, like the
 * internal token secret; production must set TICKET_CODE_SIGNING_KEY or start-up stops.
 */
const DEVELOPMENT_TICKET_CODE_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgAM+R058M4CeMPZSS
5B6gBj6prQp2/H75z8mJp5pb9OOhRANCAAQ98e1a7Nxqy2l87XcLMa3CZPOIzMqo
uJhO/R0KElPkxkFh9S5ECquBcewpyfEeBe+1GkHMVFpwg8kvE2M9ewOP
-----END PRIVATE KEY-----
`;

const ticketCodeSigningKey = secretWithDevelopmentDefault(z.string(), DEVELOPMENT_TICKET_CODE_KEY).transform((value) => value.replace(/\\n/g, '\n'));

const retiredTicketCodeKeys = z
  .string()
  .default('[]')
  .transform((value, context) => {
    try {
      const keys: unknown = JSON.parse(value);
      if (Array.isArray(keys) && keys.every((key) => typeof key === 'object' && key !== null)) return keys as JsonWebKey[];
    } catch {
      // reported below
    }
    context.addIssue({ code: 'custom', message: 'must be a JSON array of public keys (JWKs)' });
    return z.NEVER;
  });

const ticketingEnv = z.object({
  ...backendServiceEnv('ticketing'),
  DATABASE_URL: databaseUrl('ticketing'),
  KAFKA_BROKERS: kafkaBrokers,
  /** Consumer group of this service; every replica shares it. */
  KAFKA_GROUP_ID: z.string().min(1).default('ticketing'),
  /** Ticket pages behind delivery links (decision 0035); the gateway forwards /d/… here. */
  PAGES_PORT: port(DEFAULT_PORTS.ticketing.pages),
  /** The gateway's public address, the start of every delivery link. */
  PUBLIC_BASE_URL: z.string().url().default(`http://127.0.0.1:${DEFAULT_PORTS.gateway.http}`),
  /**
   * How many issuances that hold their units do their database work at once; the others wait
   * their turn, first come first served, so under a rush each finishes early instead of all late.
   * Enough of them at once to fill the shared statements of commits and issues (decision 0040).
   */
  ISSUANCE_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  /**
   * How long catalog's sold_out for a tier is answered again without asking (decision 0037):
   * units released elsewhere are on sale here again within this long. 0 always asks.
   */
  SOLD_OUT_MEMO_MS: z.coerce.number().int().min(0).max(10_000).default(1_000),
  /** Holds the waiting rooms' queues (decision 0034). */
  REDIS_URL: redisUrl,
  /** Catalog, which owns the inventory tickets are issued from. */
  CATALOG_GRPC_URL: grpcAddress('catalog'),
  /** Payments, whose payment intents pay for issuances (decision 0064). */
  PAYMENTS_GRPC_URL: grpcAddress('payments'),
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
  /** How often seat holds past their expiry are ended and their seats freed. */
  SEAT_HOLD_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(5_000),
  /** The P-256 private key (PEM; a literal `\n` may stand for newlines) that signs ticket codes (decision 0031). */
  TICKET_CODE_SIGNING_KEY: ticketCodeSigningKey,
  /** Public keys signed with before a rotation, still published while their codes circulate. */
  TICKET_CODE_RETIRED_KEYS: retiredTicketCodeKeys,
});

export type TicketingConfig = z.infer<typeof ticketingEnv>;

export function loadTicketingConfig(env: NodeJS.ProcessEnv = process.env): TicketingConfig {
  return loadConfig(ticketingEnv, env);
}
