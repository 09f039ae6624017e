import { credentials, Metadata, type CallOptions, type ChannelCredentials, type ClientUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { signInternalToken, type InternalClaims } from '@ticketing/auth';
import { INTERNAL_TOKEN_METADATA } from './server';
import { grpcErrorToApiError } from './status-mapping';

type ClientConstructor<TClient> = new (address: string, credentials: ChannelCredentials) => TClient;

export function createGrpcClient<TClient>(Client: ClientConstructor<TClient>, address: string): TClient {
  return new Client(address, credentials.createInsecure());
}

/** The full-arity overload every ts-proto grpc-js client method has. */
type UnaryMethod<TRequest, TResponse> = (
  request: TRequest,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: TResponse) => void,
) => ClientUnaryCall;

export interface CallerOptions {
  tokenSecret: string;
  /** How long a call may take before the gateway gives up with 503. */
  deadlineMs: number;
}

/** Calls one unary RPC as the given principal; a failure arrives as the ApiError it means. */
export function callUnary<TRequest, TResponse>(
  method: UnaryMethod<TRequest, TResponse>,
  request: TRequest,
  claims: InternalClaims,
  options: CallerOptions,
): Promise<TResponse> {
  const metadata = new Metadata();
  metadata.set(INTERNAL_TOKEN_METADATA, signInternalToken(claims, options.tokenSecret));
  const deadline = new Date(Date.now() + options.deadlineMs);
  return new Promise((resolve, reject) => {
    method(request, metadata, { deadline }, (error, response) => (error ? reject(grpcErrorToApiError(error)) : resolve(response)));
  });
}
