import type { InternalClaims } from '@ticketing/auth';
import { CallsTogether } from './calls-together';
import { callUnary, type CallerOptions, type UnaryMethod } from './client';
import type { CallsTogetherMessage, TogetherOutcomesMessage } from './together-messages';

/** A client's RPCs as plain async functions: `services.events.getEvent({ id })`. */
export type ServiceCalls<TClient> = {
  [K in keyof TClient as TClient[K] extends UnaryMethod<infer _Req, infer _Res> ? K : never]: TClient[K] extends UnaryMethod<infer Req, infer Res>
    ? (request: Req) => Promise<Res>
    : never;
};

/** Each client's batchers, one per RPC that has a `…Together` RPC, made when first called. */
const batchers = new WeakMap<object, Map<string, CallsTogether<unknown, unknown>>>();

/** The batcher of the client's RPC `rpc`, if the service takes its calls together (decision 0058). */
function callsTogetherOf(client: object, rpc: string): CallsTogether<unknown, unknown> | undefined {
  const method = Reflect.get(client, `${rpc}Together`) as UnaryMethod<CallsTogetherMessage<unknown>, TogetherOutcomesMessage<unknown>> | undefined;
  if (typeof method !== 'function') return undefined;
  let ofClient = batchers.get(client);
  if (!ofClient) batchers.set(client, (ofClient = new Map()));
  let batcher = ofClient.get(rpc);
  if (!batcher) ofClient.set(rpc, (batcher = new CallsTogether(method.bind(client))));
  return batcher;
}

/**
 * Every call made through the result carries `claims` in a freshly signed internal token. Calls
 * of an RPC that has a `…Together` RPC go with the others made at the same moment, as one call.
 */
export function serviceCalls<TClient extends object>(client: TClient, claims: InternalClaims, options: CallerOptions): ServiceCalls<TClient> {
  return new Proxy({} as ServiceCalls<TClient>, {
    get: (_target, rpc) => {
      const together = typeof rpc === 'string' ? callsTogetherOf(client, rpc) : undefined;
      if (together) return (request: unknown) => together.call(request, claims, options);
      const method = Reflect.get(client, rpc) as UnaryMethod<unknown, unknown>;
      return (request: unknown) => callUnary(method.bind(client), request, claims, options);
    },
  });
}
