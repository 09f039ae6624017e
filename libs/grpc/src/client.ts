import { credentials, Metadata, type CallOptions, type ChannelCredentials, type ChannelOptions, type ClientUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { internalTokenFor, type InternalClaims } from '@ticketing/auth';
import { isReplayed, writeIdempotencyMetadata, type IdempotencyMetadata } from './idempotent-call';
import { DEADLINE_METADATA, INTERNAL_TOKEN_METADATA, MAX_MESSAGE_BYTES, REQUEST_ID_METADATA } from './server';
import { grpcErrorToApiError } from './status-mapping';

type ClientConstructor<TClient> = new (address: string, credentials: ChannelCredentials, options: ChannelOptions) => TClient;

/**
 * grpc-js waits 1 s, then longer and longer (up to 120 s), between attempts to reach a service
 * that went away; a restarted service would wait that long for its first call. Calls wait for
 * the channel (waitForReady) up to their deadline, so short steps bring them through at once.
 */
const RECONNECT_BACKOFF: ChannelOptions = { 'grpc.initial_reconnect_backoff_ms': 100, 'grpc.max_reconnect_backoff_ms': 1_000 };

export function createGrpcClient<TClient>(Client: ClientConstructor<TClient>, address: string): TClient {
  return new Client(address, credentials.createInsecure(), { ...RECONNECT_BACKOFF, 'grpc.max_receive_message_length': MAX_MESSAGE_BYTES });
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
 * What every call carries: the principal's internal token and the instant its caller stops
 * waiting. A call waits (up to its deadline) for a service that is restarting instead of failing
 * at once.
 */
export function callMetadata(token: string, deadline: Date): Metadata {
  const metadata = new Metadata({ waitForReady: true });
  metadata.set(INTERNAL_TOKEN_METADATA, token);
  metadata.set(DEADLINE_METADATA, String(deadline.getTime()));
  return metadata;
}

/** Calls one unary RPC as the given principal; a failure arrives as the ApiError it means. */
export function callUnary<TRequest, TResponse>(
  method: UnaryMethod<TRequest, TResponse>,
  request: TRequest,
  claims: InternalClaims,
  options: CallerOptions,
): Promise<TResponse> {
  const deadline = new Date(Date.now() + options.deadlineMs);
  const metadata = callMetadata(internalTokenFor(claims, options.tokenSecret), deadline);
  metadata.set(REQUEST_ID_METADATA, claims.request_id);
  const { idempotency } = options;
  if (idempotency) writeIdempotencyMetadata(metadata, idempotency);
  return new Promise((resolve, reject) => {
    const call = method(request, metadata, { deadline }, (error, response) => (error ? reject(grpcErrorToApiError(error)) : resolve(response)));
    // Response metadata arrives before the response itself, so this runs before resolve.
    if (idempotency) call.on('metadata', (received: Metadata) => isReplayed(received) && idempotency.onReplayed());
  });
}
