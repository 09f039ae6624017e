import type { InternalClaims } from '@ticketing/auth';
import { callUnary, type CallerOptions, type UnaryMethod } from './client';

/** A client's RPCs as plain async functions: `services.events.getEvent({ id })`. */
export type ServiceCalls<TClient> = {
  [K in keyof TClient as TClient[K] extends UnaryMethod<infer _Req, infer _Res> ? K : never]: TClient[K] extends UnaryMethod<infer Req, infer Res>
    ? (request: Req) => Promise<Res>
    : never;
};

/** Every call made through the result carries `claims` in a freshly signed internal token. */
export function serviceCalls<TClient extends object>(client: TClient, claims: InternalClaims, options: CallerOptions): ServiceCalls<TClient> {
  return new Proxy({} as ServiceCalls<TClient>, {
    get: (_target, rpc) => {
      const method = Reflect.get(client, rpc) as UnaryMethod<unknown, unknown>;
      return (request: unknown) => callUnary(method.bind(client), request, claims, options);
    },
  });
}
