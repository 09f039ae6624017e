import type { InternalClaims } from '@ticketing/auth';
import type { catalogV1, identityV1, paymentsV1, ticketingV1, webhooksV1 } from '@ticketing/contracts';
import { serviceCalls, type CallerOptions, type ServiceCalls } from '@ticketing/grpc';

/** One client per gRPC service; catalog's services all live at CATALOG_GRPC_URL, ticketing's at TICKETING_GRPC_URL, and so on. */
export interface BackendClients {
  identity: identityV1.IdentityServiceClient;
  events: catalogV1.EventServiceClient;
  organizations: catalogV1.OrganizationServiceClient;
  tiers: catalogV1.TierServiceClient;
  seatMaps: catalogV1.SeatMapServiceClient;
  discounts: catalogV1.DiscountServiceClient;
  customers: ticketingV1.CustomerServiceClient;
  tickets: ticketingV1.TicketServiceClient;
  seatHolds: ticketingV1.SeatHoldServiceClient;
  waitingRoom: ticketingV1.WaitingRoomServiceClient;
  paymentIntents: paymentsV1.PaymentIntentServiceClient;
  payments: paymentsV1.PaymentServiceClient;
  balance: paymentsV1.BalanceServiceClient;
  payouts: paymentsV1.PayoutServiceClient;
  connectAccounts: paymentsV1.ConnectAccountServiceClient;
  webhookEndpoints: webhooksV1.WebhookEndpointServiceClient;
  webhookDeliveries: webhooksV1.WebhookDeliveryServiceClient;
}

export type BackendServices = { [K in keyof BackendClients]: ServiceCalls<BackendClients[K]> };

/** Each service's calls are made up only when a handler reaches for that service. */
export function backendServices(clients: BackendClients, claims: InternalClaims, options: CallerOptions): BackendServices {
  return new Proxy({} as BackendServices, {
    get: (_target, name) => serviceCalls(Reflect.get(clients, name) as object, claims, options),
  });
}
