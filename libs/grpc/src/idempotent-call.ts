import { AsyncLocalStorage } from 'node:async_hooks';
import { Metadata } from '@grpc/grpc-js';
import type { Tenant } from '@ticketing/auth';

/**
 * How the client's Idempotency-Key travels from the gateway to a service: the key and the
 * request's fingerprint in call metadata, scoped on the service side by the verified token's
 * tenant and the RPC. A service that answers from its record instead of writing again says so
 * in its response metadata, so the gateway can mark the HTTP answer as replayed.
 */
export interface IdempotencyMetadata {
  key: string;
  fingerprint: string;
}

const KEY_METADATA = 'x-idempotency-key';
const FINGERPRINT_METADATA = 'x-idempotency-fingerprint';
const REPLAYED_METADATA = 'x-idempotent-replayed';

export function writeIdempotencyMetadata(metadata: Metadata, idempotency: IdempotencyMetadata): void {
  metadata.set(KEY_METADATA, idempotency.key);
  metadata.set(FINGERPRINT_METADATA, idempotency.fingerprint);
}

export function readIdempotencyMetadata(metadata: Metadata): IdempotencyMetadata | undefined {
  const [key] = metadata.get(KEY_METADATA);
  const [fingerprint] = metadata.get(FINGERPRINT_METADATA);
  return typeof key === 'string' && typeof fingerprint === 'string' ? { key, fingerprint } : undefined;
}

export function replayedMetadata(): Metadata {
  const metadata = new Metadata();
  metadata.set(REPLAYED_METADATA, 'true');
  return metadata;
}

export function isReplayed(metadata: Metadata): boolean {
  return metadata.get(REPLAYED_METADATA)[0] === 'true';
}

/** One RPC made under an Idempotency-Key, as the service's write transaction sees it. */
export class IdempotentCall {
  private wasReplayed = false;

  constructor(
    readonly tenant: Tenant,
    /** The RPC's full path: the same key may be used for one write per RPC. */
    readonly operation: string,
    readonly key: string,
    readonly fingerprint: string,
    /** When the caller stops waiting; undefined for a call without a deadline. */
    readonly deadline?: Date,
  ) {}

  /** The call returned the committed result of an earlier call instead of writing again. */
  markReplayed(): void {
    this.wasReplayed = true;
  }

  get replayed(): boolean {
    return this.wasReplayed;
  }
}

const idempotentCalls = new AsyncLocalStorage<IdempotentCall>();

/** Runs a handler so that the write transactions it opens see its idempotent call. */
export function runIdempotentCall<T>(call: IdempotentCall, handler: () => Promise<T>): Promise<T> {
  return idempotentCalls.run(call, handler);
}

/** The idempotent call the current handler serves, if its caller sent a key. */
export function currentIdempotentCall(): IdempotentCall | undefined {
  return idempotentCalls.getStore();
}
