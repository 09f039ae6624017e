import { credentials, Metadata, type CallOptions, type Client, type ChannelCredentials, type ChannelOptions, type ClientUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { internalTokenFor, type InternalClaims } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { ChannelOutage, OUTAGE_AFTER_MS, OUTAGE_WAIT_MS } from './channel-outage';
import { isReplayed, writeIdempotencyMetadata, type IdempotencyMetadata } from './idempotent-call';
import { INTERNAL_TOKEN_METADATA, MAX_MESSAGE_BYTES, REQUEST_ID_METADATA } from './server';
import { grpcErrorToApiError } from './status-mapping';

type ClientConstructor<TClient> = new (address: string, credentials: ChannelCredentials, options: ChannelOptions) => TClient;

/**
 * grpc-js waits 1 s, then longer and longer (up to 120 s), between attempts to reach a service
 * that went away; a restarted service would wait that long for its first call. Calls wait for
 * the channel (waitForReady) up to their deadline, so short steps bring them through at once.
 */
const RECONNECT_BACKOFF: ChannelOptions = { 'grpc.initial_reconnect_backoff_ms': 100, 'grpc.max_reconnect_backoff_ms': 1_000 };

const outages = new WeakMap<object, ChannelOutage>();

/** `outageAfterMs`: how long the service may go unreached before calls stop waiting for it (ChannelOutage). */
export function createGrpcClient<TClient extends Client>(Client: ClientConstructor<TClient>, address: string, { outageAfterMs = OUTAGE_AFTER_MS } = {}): TClient {
  const client = new Client(address, credentials.createInsecure(), { ...RECONNECT_BACKOFF, 'grpc.max_receive_message_length': MAX_MESSAGE_BYTES });
  outages.set(client, new ChannelOutage(client.getChannel(), outageAfterMs));
  return client;
}

/** What tells whether a client's service is down; none for a client made without createGrpcClient. */
export function outageOf(client: object): ChannelOutage | undefined {
  return outages.get(client);
}

/** The full-arity overload every ts-proto grpc-js client method has (the last one, which inference sees). */
export type UnaryMethod<TRequest, TResponse> = (
  request: TRequest,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: TResponse) => void,
) => ClientUnaryCall;

export interface CallerOptions {
  tokenSecret: string;
  /** How long a call may take before the gateway gives up with 503. */
  deadlineMs: number;
  /** Per request: the Idempotency-Key a write is made under, and who to tell when the service replays it. */
  idempotency?: IdempotencyMetadata & { onReplayed(): void };
}

/**
 * Calls one unary RPC as the given principal; a failure arrives as the ApiError it means. A
 * call waits (up to its deadline) for a service that is restarting instead of failing at once;
 * to a service `outage` says is down, it waits only a moment for the channel, then is refused
 * unsent with 503.
 */
export async function callUnary<TRequest, TResponse>(
  method: UnaryMethod<TRequest, TResponse>,
  request: TRequest,
  claims: InternalClaims,
  options: CallerOptions,
  outage?: ChannelOutage,
): Promise<TResponse> {
  if (outage?.isDown && !(await outage.connectsWithin(OUTAGE_WAIT_MS))) {
    throw ApiError.serviceUnavailable(new Error(`not sent: the service has been unreachable for over ${outage.outageAfterMs} ms`));
  }
  const metadata = new Metadata({ waitForReady: true });
  metadata.set(INTERNAL_TOKEN_METADATA, internalTokenFor(claims, options.tokenSecret));
  metadata.set(REQUEST_ID_METADATA, claims.request_id);
  const { idempotency } = options;
  if (idempotency) writeIdempotencyMetadata(metadata, idempotency);
  const deadline = new Date(Date.now() + options.deadlineMs);
  return new Promise((resolve, reject) => {
    const call = method(request, metadata, { deadline }, (error, response) => (error ? reject(grpcErrorToApiError(error)) : resolve(response)));
    // Response metadata arrives before the response itself, so this runs before resolve.
    if (idempotency) call.on('metadata', (received: Metadata) => isReplayed(received) && idempotency.onReplayed());
  });
}
