import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { redactApiKeys } from '@ticketing/auth';
import { ApiError, retryAfterOf, toErrorEnvelope, type ErrorEnvelope } from '@ticketing/errors';
import type { Logger } from '@ticketing/observability';
import { NOT_AN_OBJECT, NOT_UTF8, readableLimit } from './json-body.middleware';
import { requestState } from './request-state';

interface HttpError extends Error {
  status?: number;
  type?: string;
  /** The body limit, in bytes, that a body too large exceeded. */
  limit?: number;
  /** The charset, or the content encoding, that the body parser does not read. */
  charset?: string;
  encoding?: string;
}

/** Whether the body the parser refused is JSON all the same: a bare value, which its strict mode refuses. */
function isBareJsonValue(error: HttpError & { body?: unknown }): boolean {
  if (typeof error.body !== 'string') return false;
  try {
    JSON.parse(error.body);
    return true;
  } catch {
    return false;
  }
}

/** Errors raised by Express and its body parser, in the public API's terms. */
function fromHttpError(error: HttpError, req: Request): ApiError | undefined {
  if (error.type === 'entity.parse.failed') {
    return new ApiError('invalid_json', isBareJsonValue(error) ? NOT_AN_OBJECT : 'The request body is not valid JSON.');
  }
  if (error.type === NOT_UTF8) return new ApiError('invalid_json', 'The request body is not valid UTF-8; send JSON encoded in UTF-8.');
  if (error.type === 'entity.too.large') return new ApiError('body_too_large', `The request body is larger than ${readableLimit(error.limit!)}, the most this operation takes.`);
  if (error.type === 'charset.unsupported') return new ApiError('unsupported_media_type', `The body's charset, ${error.charset}, is not one the API reads; send JSON encoded in UTF-8.`);
  if (error.type === 'encoding.unsupported') {
    return new ApiError('unsupported_media_type', `Content-Encoding ${error.encoding} is not one the API reads; send the body uncompressed, or compressed with gzip, deflate or br.`);
  }
  const contentEncoding = req.headers['content-encoding'];
  if (error.status === 400 && error.type === undefined && contentEncoding !== undefined && contentEncoding.toLowerCase() !== 'identity') {
    // The decompressor's own complaint ("incorrect header check") says nothing a caller can act on.
    return new ApiError('invalid_json', `The request body could not be decompressed as its Content-Encoding, ${contentEncoding}, says; send it so compressed, or uncompressed without that header.`);
  }
  if (error.status === 415) return new ApiError('unsupported_media_type', error.message);
  // Other request faults Express reports, e.g. a URL with broken percent-encoding.
  if (error.status !== undefined && error.status >= 400 && error.status < 500) return new ApiError('parameter_invalid', error.message);
  return undefined;
}

export const routeNotFound: RequestHandler = (req) => {
  throw new ApiError('route_not_found', `Unrecognized request URL: ${req.method} ${req.path}. See /v1/docs for the available endpoints.`);
};

/** The one place failures become the error envelope; anything unexpected is a logged, generic 500. */
/**
 * An error as answered, with any whole API key its message or param repeats from the request
 * (a path such as `/v1/nowhere/sk_test_…` in a 404 or 405, a key sent as `starting_after`) cut
 * to its prefix: the answer may be logged by the client or a proxy (decision 0007).
 */
function withoutSecrets(envelope: ErrorEnvelope): ErrorEnvelope {
  const { message, param } = envelope.error;
  return { error: { ...envelope.error, message: redactApiKeys(message), ...(param === undefined ? {} : { param: redactApiKeys(param) }) } };
}

/** The Retry-After an error's code carries (a 503's); a 429's was set by the limiter that refused it. */
export function setRetryAfter(res: Response, error: ApiError): void {
  const retryAfter = retryAfterOf(error.code);
  if (retryAfter !== undefined) res.setHeader('Retry-After', retryAfter);
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const { requestId } = requestState(res);
    let apiError = error instanceof ApiError ? error : error instanceof Error ? fromHttpError(error, req) : undefined;
    if (!apiError) {
      logger.error({ err: error, request_id: requestId }, 'unhandled error');
      apiError = new ApiError('internal_error', 'An internal error occurred; retry later or contact support with the request id.');
    }
    setRetryAfter(res, apiError);
    res.status(apiError.status).json(withoutSecrets(toErrorEnvelope(apiError, requestId)));
  };
}
