import { z } from 'zod';

/**
 * Default ports of each process on a developer machine; Kubernetes overrides them by env.
 * `ops` serves probes and metrics, never the API (the gateway's skips 9100, node_exporter's).
 * All stay below Linux's ephemeral range (32768–60999) with any PORT_OFFSET up to 10,000, so an
 * outgoing connection's local port can never take a service's port from under it.
 */
export const DEFAULT_PORTS = {
  gateway: { http: 8080, ops: 9107 },
  identity: { grpc: 7051, ops: 9101 },
  catalog: { grpc: 7052, ops: 9102 },
  ticketing: { grpc: 7053, ops: 9103, pages: 8081 },
  payments: { grpc: 7054, ops: 9104, pages: 8082 },
  scanning: { grpc: 7055, ops: 9105 },
  webhooks: { grpc: 7056, ops: 9106 },
} as const;

export type BackendService = Exclude<keyof typeof DEFAULT_PORTS, 'gateway'>;
export const BACKEND_SERVICES = Object.keys(DEFAULT_PORTS).filter((name) => name !== 'gateway') as BackendService[];

export const DEFAULT_POSTGRES_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

/** The database a service owns, by default on the local server. */
export function defaultDatabaseName(service: BackendService): string {
  return `ticketing_${service}`;
}

export const port = (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback);

/**
 * A secret with a value for development and tests only: production (NODE_ENV=production) must
 * set it, or start-up stops naming the variable.
 */
export function secretWithDevelopmentDefault(secret: z.ZodString, developmentValue: string) {
  return secret.optional().transform((value, context) => {
    if (value) return value;
    if (process.env.NODE_ENV === 'production') {
      context.addIssue({ code: 'custom', message: 'is required in production' });
      return z.NEVER;
    }
    return developmentValue;
  });
}

/** The secret gateway and services share to sign internal tokens. */
export const internalTokenSecret = secretWithDevelopmentDefault(z.string().min(16, 'must be at least 16 characters'), 'development-only-internal-token-secret');

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

export const redisUrl = z.string().url().default('redis://127.0.0.1:6379');

export const kafkaBrokers = z
  .string()
  .default('127.0.0.1:9092')
  .transform((value) => value.split(',').map((broker) => broker.trim()).filter(Boolean));

export function databaseUrl(service: BackendService) {
  return z.string().url().default(`postgresql://postgres@127.0.0.1:5432/${defaultDatabaseName(service)}`);
}

/** `host:port` of a backend service's gRPC server; the default is its port on this machine. */
export const grpcAddress = (service: BackendService) => z.string().min(1).default(`127.0.0.1:${DEFAULT_PORTS[service].grpc}`);

/** How long one gRPC call to another service may take before it fails. */
export const grpcDeadlineMs = z.coerce.number().int().min(1).default(10_000);

/** Variables every backend service reads. */
export function backendServiceEnv(service: BackendService) {
  return {
    GRPC_PORT: port(DEFAULT_PORTS[service].grpc),
    OPS_PORT: port(DEFAULT_PORTS[service].ops),
    INTERNAL_TOKEN_SECRET: internalTokenSecret,
    LOG_LEVEL: logLevel,
  };
}
