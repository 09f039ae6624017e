import type { CallOptions, ClientUnaryCall, Metadata, ServiceError } from '@grpc/grpc-js';
import type { InternalClaims } from '@ticketing/auth';
import type { catalogV1, identityV1 } from '@ticketing/contracts';
import { callUnary, type CallerOptions } from '@ticketing/grpc';

/** The full-arity overload of a generated client method (the last one, which inference sees). */
type UnaryRpc<TRequest, TResponse> = (
  request: TRequest,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: TResponse) => void,
) => ClientUnaryCall;

/** A client's RPCs as plain async functions: `services.events.getEvent({ id })`. */
export type ServiceCalls<TClient> = {
  [K in keyof TClient as TClient[K] extends UnaryRpc<infer _Req, infer _Res> ? K : never]: TClient[K] extends UnaryRpc<infer Req, infer Res>
    ? (request: Req) => Promise<Res>
    : never;
};

/** One client per gRPC service; catalog's services all live at CATALOG_GRPC_URL. */
export interface BackendClients {
  identity: identityV1.IdentityServiceClient;
  events: catalogV1.EventServiceClient;
  organizations: catalogV1.OrganizationServiceClient;
  tiers: catalogV1.TierServiceClient;
  seatMaps: catalogV1.SeatMapServiceClient;
  discounts: catalogV1.DiscountServiceClient;
}

export type BackendServices = { [K in keyof BackendClients]: ServiceCalls<BackendClients[K]> };

/** Every call made through the result carries `claims` in a freshly signed internal token. */
export function serviceCalls<TClient extends object>(client: TClient, claims: InternalClaims, options: CallerOptions): ServiceCalls<TClient> {
  return new Proxy({} as ServiceCalls<TClient>, {
    get: (_target, rpc) => {
      const method = Reflect.get(client, rpc) as UnaryRpc<unknown, unknown>;
      return (request: unknown) => callUnary(method.bind(client), request, claims, options);
    },
  });
}

/** Each service's calls are made up only when a handler reaches for that service. */
export function backendServices(clients: BackendClients, claims: InternalClaims, options: CallerOptions): BackendServices {
  return new Proxy({} as BackendServices, {
    get: (_target, name) => serviceCalls(Reflect.get(clients, name) as object, claims, options),
  });
}
