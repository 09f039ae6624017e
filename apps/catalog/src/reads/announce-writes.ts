import type { Tenant } from '@ticketing/auth';
import type { CallContext } from '@ticketing/grpc';

/** What is told of each write: `CatalogReadGenerations` in production. */
export interface CatalogChanges {
  changed(tenant: Tenant): Promise<void>;
}

/**
 * The service's handlers, each RPC but the listed reads telling `changes` of its tenant once it
 * ends, whether it succeeded or not (a call can fail after its commit), and before its answer
 * goes out (decision 0051). Anything not listed as a read counts as a write, so an RPC added
 * later is announced unless someone decides it only reads.
 */
export function announceWrites<THandlers extends object>(handlers: THandlers, reads: ReadonlyArray<keyof THandlers>, changes: CatalogChanges): THandlers {
  const announced: Record<string, (request: unknown, context: CallContext) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(handlers as Record<string, (request: unknown, context: CallContext) => Promise<unknown>>)) {
    announced[name] = reads.includes(name as keyof THandlers)
      ? handler
      : async (request, context) => {
          try {
            return await handler(request, context);
          } finally {
            if (context.claims.tenant) await changes.changed(context.tenant);
          }
        };
  }
  return announced as THandlers;
}
