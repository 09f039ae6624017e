import { ERROR_CODES, paramStatusOf, type ErrorCode, type ErrorType } from './error-codes';

/**
 * The one error type that crosses layers: thrown by use cases, carried over gRPC, and rendered
 * by the gateway as the public error envelope. Anything else that is thrown is an internal error.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly param: string | undefined;

  /** `cause`: the failure behind it, for logs; never shown to the caller. */
  constructor(code: ErrorCode, message: string, options: { param?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.param = options.param;
  }

  get status(): number {
    return this.param === undefined ? ERROR_CODES[this.code].status : paramStatusOf(this.code);
  }

  get type(): ErrorType {
    return ERROR_CODES[this.code].type;
  }

  static resourceMissing(resource: string, id: string, param?: string): ApiError {
    return new ApiError('resource_missing', `No such ${resource}: '${id}'`, { param });
  }

  /**
   * A service or store the request needs did not answer (in time); the client retries. A write's
   * outcome is then unknown (it may have been carried out just before), so the message says how
   * to retry one safely.
   */
  static serviceUnavailable(cause?: unknown): ApiError {
    return new ApiError(
      'service_unavailable',
      'A backing service is temporarily unavailable; retry the request shortly. A write may have been carried out: retry it with the same Idempotency-Key, which never carries it out twice.',
      { cause },
    );
  }
}

export interface ErrorEnvelope {
  error: {
    type: ErrorType;
    code: ErrorCode;
    message: string;
    param?: string;
    request_id: string;
  };
}

export function toErrorEnvelope(error: ApiError, requestId: string): ErrorEnvelope {
  return {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param === undefined ? {} : { param: error.param }),
      request_id: requestId,
    },
  };
}

/** Another service said no (4xx): nothing changed there, and asking again would get the same answer. */
export const isRefusal = (error: unknown): error is ApiError => error instanceof ApiError && error.status < 500;

/** The refusal `work` met, if another service refused it; any other failure (an unknown outcome) is thrown. */
export async function refusalOf(work: () => Promise<unknown>): Promise<ApiError | null> {
  try {
    await work();
    return null;
  } catch (error) {
    if (isRefusal(error)) return error;
    throw error;
  }
}
