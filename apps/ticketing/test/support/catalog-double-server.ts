import { catalogV1 } from '@ticketing/contracts';
import { createGrpcClient, startGrpcServer, type CallerOptions } from '@ticketing/grpc';
import type { Logger } from '@ticketing/observability';
import { CatalogInventory, type CatalogClients } from '../../src/catalog/catalog-inventory';
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
  const address = `127.0.0.1:${server.port}`;
  const clients: CatalogClients = {
    events: createGrpcClient(catalogV1.EventServiceClient, address),
    inventory: createGrpcClient(catalogV1.InventoryServiceClient, address),
    tiers: createGrpcClient(catalogV1.TierServiceClient, address),
    discounts: createGrpcClient(catalogV1.DiscountServiceClient, address),
    seatMaps: createGrpcClient(catalogV1.SeatMapServiceClient, address),
  };
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
