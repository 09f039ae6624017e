import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string | undefined>();

/**
 * Runs `work` so that every event it enqueues carries `requestId` (docs/decisions/0019). Set once
 * where a request enters a service (gRPC call, consumed event) instead of threading the id
 * through every use case, which would otherwise carry it only to pass it on.
 */
export function withRequestId<T>(requestId: string | undefined, work: () => T): T {
  return scope.run(requestId, work);
}

/** The request being served, when there is one. */
export function currentRequestId(): string | undefined {
  return scope.getStore();
}
