import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { catalogV1, identityV1, paymentsV1, ticketingV1, webhooksV1 } from '@ticketing/contracts';
import { createGrpcClient, implementService, startGrpcServer } from '@ticketing/grpc';
import type { BackendClients } from '../../src/grpc/service-calls';
import type { CatalogDouble } from './catalog.double';
import type { IdentityDouble } from './identity.double';

/** A logger whose JSON lines the test can read back (to check what is logged, and what never is). */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  return { logger, lines };
}

export interface BackendDoubles {
  /** Gateway clients for every backend service, all at the doubles' one gRPC server. */
  clients: BackendClients;
  stop(): Promise<void>;
}

/**
 * Identity and catalog's event service, as the given doubles, behind a real gRPC server. The
 * other services (catalog's, ticketing's, payments', webhooks') are served by no double: their calls answer UNIMPLEMENTED.
 */
export async function startBackendDoubles(tokenSecret: string, identity: IdentityDouble, catalog: CatalogDouble): Promise<BackendDoubles> {
  const peerOptions = { tokenSecret, logger: pino({ level: 'silent' }) };
  const grpc = await startGrpcServer(
    [
      { definition: identityV1.IdentityServiceService, implementation: implementService<identityV1.IdentityServiceServer>(identity.handlers(), peerOptions) },
      { definition: catalogV1.EventServiceService, implementation: implementService<catalogV1.EventServiceServer>(catalog.handlers(), peerOptions) },
    ],
    0,
  );
  const address = `127.0.0.1:${grpc.port}`;
  const clients: BackendClients = {
    identity: createGrpcClient(identityV1.IdentityServiceClient, address),
    events: createGrpcClient(catalogV1.EventServiceClient, address),
    organizations: createGrpcClient(catalogV1.OrganizationServiceClient, address),
    tiers: createGrpcClient(catalogV1.TierServiceClient, address),
    seatMaps: createGrpcClient(catalogV1.SeatMapServiceClient, address),
    discounts: createGrpcClient(catalogV1.DiscountServiceClient, address),
    customers: createGrpcClient(ticketingV1.CustomerServiceClient, address),
    tickets: createGrpcClient(ticketingV1.TicketServiceClient, address),
    seatHolds: createGrpcClient(ticketingV1.SeatHoldServiceClient, address),
    waitingRoom: createGrpcClient(ticketingV1.WaitingRoomServiceClient, address),
    paymentIntents: createGrpcClient(paymentsV1.PaymentIntentServiceClient, address),
    payments: createGrpcClient(paymentsV1.PaymentServiceClient, address),
    balance: createGrpcClient(paymentsV1.BalanceServiceClient, address),
    payouts: createGrpcClient(paymentsV1.PayoutServiceClient, address),
    connectAccounts: createGrpcClient(paymentsV1.ConnectAccountServiceClient, address),
    webhookEndpoints: createGrpcClient(webhooksV1.WebhookEndpointServiceClient, address),
    webhookDeliveries: createGrpcClient(webhooksV1.WebhookDeliveryServiceClient, address),
  };
  return {
    clients,
    stop: async () => {
      Object.values(clients).forEach((client) => client.close());
      await grpc.shutdown();
    },
  };
}
