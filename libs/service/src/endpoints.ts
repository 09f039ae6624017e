import type { Server } from 'node:http';
import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { startGrpcServer } from '@ticketing/grpc';
import { startOpsServer, type Logger } from '@ticketing/observability';
import { readyUnlessShuttingDown, type ShutdownStep } from './run-service';

export interface EndpointsOptions {
  grpcPort: number;
  opsPort: number;
  logger: Logger;
  /** The service's gRPC APIs; the standard health service is always added. */
  services: Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }>;
  isReady: () => Promise<boolean>;
}

/** Every backend service listens the same way: gRPC for calls, HTTP for probes and metrics. */
export async function startEndpoints(options: EndpointsOptions): Promise<ShutdownStep[]> {
  const grpc = await startGrpcServer(options.services, options.grpcPort);
  const ops = await startOpsServer({ port: options.opsPort, isReady: readyUnlessShuttingDown(options.isReady) });
  options.logger.info({ grpc_port: grpc.port, ops_port: options.opsPort }, 'listening');
  return [{ name: 'grpc server', run: () => grpc.shutdown() }, closeOpsServer(ops)];
}

/** The step that closes the ops server, after every other step (shutdownOrder). */
export function closeOpsServer(ops: Server): ShutdownStep {
  return { name: 'ops server', run: () => new Promise((resolve) => ops.close(resolve)), last: true };
}
