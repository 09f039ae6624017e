import path from 'node:path';
import { BACKEND_SERVICES, DEFAULT_PORTS, type BackendService } from '@ticketing/config';

export const repoRoot = path.resolve(__dirname, '../..');

export const ALL_SERVICES = [...BACKEND_SERVICES, 'gateway'] as const;
export type ServiceName = (typeof ALL_SERVICES)[number];

/** Services that own a database (those with a Prisma schema). */
export const DATABASE_SERVICES: BackendService[] = ['identity', 'catalog', 'ticketing', 'payments', 'webhooks'];

export function serviceDir(service: ServiceName): string {
  return path.join(repoRoot, 'apps', service);
}

/**
 * Ports for one running copy of the system. `offset` lets the end-to-end suite run its own
 * copy beside a developer's `npm start`.
 */
export function servicePorts(offset = 0): Record<ServiceName, Record<string, string>> {
  const backend = (service: BackendService) => ({
    GRPC_PORT: String(DEFAULT_PORTS[service].grpc + offset),
    OPS_PORT: String(DEFAULT_PORTS[service].ops + offset),
  });
  const grpcUrl = (service: BackendService) => `127.0.0.1:${DEFAULT_PORTS[service].grpc + offset}`;
  return {
    identity: backend('identity'),
    catalog: backend('catalog'),
    ticketing: {
      ...backend('ticketing'),
      CATALOG_GRPC_URL: grpcUrl('catalog'),
      PAYMENTS_GRPC_URL: grpcUrl('payments'),
      PAGES_PORT: String(DEFAULT_PORTS.ticketing.pages + offset),
      PUBLIC_BASE_URL: `http://127.0.0.1:${DEFAULT_PORTS.gateway.http + offset}`,
    },
    payments: {
      ...backend('payments'),
      CATALOG_GRPC_URL: grpcUrl('catalog'),
      TICKETING_GRPC_URL: grpcUrl('ticketing'),
      PAGES_PORT: String(DEFAULT_PORTS.payments.pages + offset),
      PUBLIC_BASE_URL: `http://127.0.0.1:${DEFAULT_PORTS.gateway.http + offset}`,
    },
    scanning: backend('scanning'),
    webhooks: backend('webhooks'),
    gateway: {
      PORT: offset === 0 && process.env.PORT ? process.env.PORT : String(DEFAULT_PORTS.gateway.http + offset),
      OPS_PORT: String(DEFAULT_PORTS.gateway.ops + offset),
      IDENTITY_GRPC_URL: grpcUrl('identity'),
      CATALOG_GRPC_URL: grpcUrl('catalog'),
      TICKETING_GRPC_URL: grpcUrl('ticketing'),
      PAYMENTS_GRPC_URL: grpcUrl('payments'),
      WEBHOOKS_GRPC_URL: grpcUrl('webhooks'),
      TICKETING_PAGES_URL: `http://127.0.0.1:${DEFAULT_PORTS.ticketing.pages + offset}`,
      PAYMENTS_PAGES_URL: `http://127.0.0.1:${DEFAULT_PORTS.payments.pages + offset}`,
    },
  };
}
