import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { ApiError } from '@ticketing/errors';
import { apiErrorToGrpc, grpcErrorToApiError } from './status-mapping';

function asServiceError(payload: ReturnType<typeof apiErrorToGrpc>): ServiceError {
  return Object.assign(new Error(payload.details), payload) as ServiceError;
}

describe('gRPC status mapping', () => {
  it.each([
    ['parameter_invalid', 'label', GrpcStatus.INVALID_ARGUMENT, 400],
    ['resource_missing', undefined, GrpcStatus.NOT_FOUND, 404],
    ['resource_missing', 'starting_after', GrpcStatus.INVALID_ARGUMENT, 400],
    ['mode_unavailable', undefined, GrpcStatus.PERMISSION_DENIED, 403],
    ['key_limit_reached', undefined, GrpcStatus.FAILED_PRECONDITION, 409],
  ] as const)('carries %s (param %s) across and back unchanged', (code, param, grpcCode, httpStatus) => {
    const payload = apiErrorToGrpc(new ApiError(code, 'something specific', { param }));
    expect(payload.code).toBe(grpcCode);
    const restored = grpcErrorToApiError(asServiceError(payload));
    expect(restored).toMatchObject({ code, message: 'something specific', param, status: httpStatus });
  });

  it('turns an unavailable peer into 503 and anything unexplained into a 500', () => {
    const unavailable = { code: GrpcStatus.UNAVAILABLE, details: 'connect ECONNREFUSED', metadata: undefined } as unknown as ServiceError;
    expect(grpcErrorToApiError(unavailable)).toMatchObject({ code: 'service_unavailable', status: 503 });
    const internal = { code: GrpcStatus.INTERNAL, details: 'stack trace here', metadata: undefined } as unknown as ServiceError;
    const mapped = grpcErrorToApiError(internal);
    expect(mapped).toMatchObject({ code: 'internal_error', status: 500 });
    expect(mapped.message).not.toContain('stack trace');
  });
});
