import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { ApiError, isErrorCode } from '@ticketing/errors';

/**
 * The single mapping between public errors and gRPC: a service turns an ApiError into a status
 * plus trailers naming the exact code and parameter, and the gateway turns it back. Anything
 * without those trailers is an internal failure from the public's point of view.
 */
const ERROR_CODE_TRAILER = 'x-error-code';
const ERROR_PARAM_TRAILER = 'x-error-param';

function grpcStatusFor(httpStatus: number): GrpcStatus {
  switch (httpStatus) {
    case 400:
    case 413:
    case 415:
      return GrpcStatus.INVALID_ARGUMENT;
    case 401:
      return GrpcStatus.UNAUTHENTICATED;
    case 403:
      return GrpcStatus.PERMISSION_DENIED;
    case 404:
      return GrpcStatus.NOT_FOUND;
    case 409:
      return GrpcStatus.FAILED_PRECONDITION;
    case 429:
      return GrpcStatus.RESOURCE_EXHAUSTED;
    case 501:
      return GrpcStatus.UNIMPLEMENTED;
    case 503:
      return GrpcStatus.UNAVAILABLE;
    default:
      return GrpcStatus.INTERNAL;
  }
}

export interface GrpcErrorPayload {
  code: GrpcStatus;
  details: string;
  metadata: Metadata;
}

export function apiErrorToGrpc(error: ApiError): GrpcErrorPayload {
  const metadata = new Metadata();
  metadata.set(ERROR_CODE_TRAILER, error.code);
  if (error.param !== undefined) metadata.set(ERROR_PARAM_TRAILER, error.param);
  return { code: grpcStatusFor(error.status), details: error.message, metadata };
}

export function internalErrorToGrpc(): GrpcErrorPayload {
  return { code: GrpcStatus.INTERNAL, details: 'internal error', metadata: new Metadata() };
}

function trailer(metadata: Metadata | undefined, name: string): string | undefined {
  const value = metadata?.get(name)[0];
  return typeof value === 'string' ? value : undefined;
}

/** What a failed call means to the public API caller. */
export function grpcErrorToApiError(error: ServiceError): ApiError {
  const code = trailer(error.metadata, ERROR_CODE_TRAILER);
  if (code !== undefined && isErrorCode(code)) {
    return new ApiError(code, error.details, { param: trailer(error.metadata, ERROR_PARAM_TRAILER) });
  }
  if (error.code === GrpcStatus.UNAVAILABLE || error.code === GrpcStatus.DEADLINE_EXCEEDED) {
    return ApiError.serviceUnavailable();
  }
  return internalApiError();
}

/** What a service's hidden failure means to the public API caller. */
export function internalApiError(): ApiError {
  return new ApiError('internal_error', 'An internal error occurred; retry later or contact support with the request id.');
}
