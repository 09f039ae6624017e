import { z } from 'zod';
import { backendServiceEnv, DEFAULT_PORTS, databaseUrl, grpcAddress, grpcDeadlineMs, kafkaBrokers, loadConfig, port } from '@ticketing/config';
import { DEFAULT_ORDER_LIFETIME_SECONDS, MAX_ORDER_LIFETIME_SECONDS } from './domain/order';


const paymentsEnv = z.object({
  ...backendServiceEnv('payments'),
  DATABASE_URL: databaseUrl('payments'),
  KAFKA_BROKERS: kafkaBrokers,
  /** Consumer group of this service; every replica shares it. */
  KAFKA_GROUP_ID: z.string().min(1).default('payments'),
  /** Catalog, which prices orders and holds their units. */
  CATALOG_GRPC_URL: grpcAddress('catalog'),
  /** Ticketing, whose seat holds orders take (decision 0062). */
  TICKETING_GRPC_URL: grpcAddress('ticketing'),
  /** How long one call to catalog or ticketing may take. */
  GRPC_DEADLINE_MS: grpcDeadlineMs,
  /** The sandbox's authentication pages (decision 0061); the gateway forwards /sandbox/… here. */
  PAGES_PORT: port(DEFAULT_PORTS.payments.pages),
  /** The gateway's public address, the start of the sandbox's authentication links. */
  PUBLIC_BASE_URL: z.string().url().default(`http://127.0.0.1:${DEFAULT_PORTS.gateway.http}`),
  /** The processing fee (decision 0061): basis points of each payment (290 = 2.9 %)… */
  PAYMENT_FEE_PERCENT_BPS: z.coerce.number().int().min(0).max(10_000).default(290),
  /** …plus this many minor units of its currency. */
  PAYMENT_FEE_FIXED: z.coerce.number().int().min(0).default(30),
  /** How long after a payment its money becomes available for payouts: 2 days by default. */
  SETTLEMENT_DELAY_MS: z.coerce.number().int().min(0).default(2 * 24 * 3600_000),
  /** How long a sandbox charge of pm_card_chargeDeclinedAfterDelay stays processing before it fails. */
  SANDBOX_DECLINE_DELAY_MS: z.coerce.number().int().min(0).default(10_000),
  /** How long the sandbox takes to answer a charge it has made; 0 answers at once. */
  SANDBOX_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** In test mode, how long each step of the sandbox takes: a connect account's verification, a payout's pending and in-transit stages. */
  SANDBOX_PAYOUT_STEP_MS: z.coerce.number().int().min(100).default(60_000),
  /** How often charges still processing are finished (a confirmation cut off, a late outcome)… */
  CHARGE_REDRIVE_INTERVAL_MS: z.coerce.number().int().min(100).default(2_000),
  /** …once they are this old, so that the re-driver rarely races a confirmation in flight. */
  CHARGE_REDRIVE_AFTER_MS: z.coerce.number().int().min(0).default(5_000),
  /** How long an order intent holds its units unpaid (decision 0062): 15 minutes, as the API reference says. */
  ORDER_LIFETIME_SECONDS: z.coerce.number().int().min(1).max(MAX_ORDER_LIFETIME_SECONDS).default(DEFAULT_ORDER_LIFETIME_SECONDS),
  /** How often order intents unpaid past their expiry are canceled and their units given back. */
  ORDER_EXPIRY_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(5_000),
  /** The outbox relay's pause between polls when no commit wakes it (decision 0028). */
  OUTBOX_POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(1_000),
  /** `false` behind a pooler that does not keep sessions: the relay then only polls. */
  OUTBOX_LISTEN: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
});

export type PaymentsConfig = z.infer<typeof paymentsEnv>;

export function loadPaymentsConfig(env: NodeJS.ProcessEnv = process.env): PaymentsConfig {
  return loadConfig(paymentsEnv, env);
}
