import { z } from 'zod';
import { DEFAULT_PORTS, internalTokenSecret, loadConfig, logLevel, port, redisUrl, type BackendService } from '@ticketing/config';

/** `host:port` of a backend service's gRPC server; the default is its port on this machine. */
const grpcAddress = (service: BackendService) => z.string().min(1).default(`127.0.0.1:${DEFAULT_PORTS[service].grpc}`);

const gatewayEnv = z.object({
  PORT: port(DEFAULT_PORTS.gateway.http),
  REDIS_URL: redisUrl,
  IDENTITY_GRPC_URL: grpcAddress('identity'),
  CATALOG_GRPC_URL: grpcAddress('catalog'),
  INTERNAL_TOKEN_SECRET: internalTokenSecret,
  /** How long one gRPC call may take before the request fails with 503. */
  GRPC_DEADLINE_MS: z.coerce.number().int().min(1).default(10_000),
  LOG_LEVEL: logLevel,
});

export type GatewayConfig = z.infer<typeof gatewayEnv>;

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return loadConfig(gatewayEnv, env);
}
