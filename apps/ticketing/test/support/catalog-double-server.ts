import { startGrpcServer, type CallerOptions } from '@ticketing/grpc';
import type { Logger } from '@ticketing/observability';
import { CatalogInventory, catalogClientsAt, type CatalogClients } from '../../src/catalog/catalog-inventory';
import { CatalogDouble } from './catalog.double';

export interface RunningCatalogDouble {
  double: CatalogDouble;
  clients: CatalogClients;
  /** Ticketing's client of it, as the service builds one. */
  catalog: CatalogInventory;
  close(): Promise<void>;
}

/** The catalog double behind a real gRPC server, and ticketing's clients of it. */
export async function startCatalogDouble(options: CallerOptions, logger: Logger): Promise<RunningCatalogDouble> {
  const double = new CatalogDouble();
  const server = await startGrpcServer(double.services({ tokenSecret: options.tokenSecret, logger }), 0);
  const clients = catalogClientsAt(`127.0.0.1:${server.port}`);
  return {
    double,
    clients,
    catalog: new CatalogInventory(clients, options),
    close: async () => {
      for (const client of Object.values(clients)) client.close();
      await server.shutdown();
    },
  };
}
