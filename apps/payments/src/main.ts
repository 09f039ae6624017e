import { backendServiceEnv, loadConfig } from '@ticketing/config';
import { runService, startEndpoints } from '@ticketing/service';
import { z } from 'zod';

/**
 * The payments process: it answers health and metrics probes; its gRPC API and data arrive with
 * the issue that builds its behaviour (see the route table's 501 operations in the gateway).
 */
void runService({
  name: 'payments',
  loadConfig: () => loadConfig(z.object(backendServiceEnv('payments'))),
  start: (config, logger) =>
    startEndpoints({ grpcPort: config.GRPC_PORT, opsPort: config.OPS_PORT, logger, services: [], isReady: async () => true }),
});
