import type { RequestHandler, Response } from 'express';
import { ApiError, type ErrorEnvelope } from '@ticketing/errors';
import type { Logger } from '@ticketing/observability';
import { headerValues } from '../http/header-values';
import { requestState } from '../http/request-state';
import type { IdempotencyScope, IdempotencyStore, StoredResponse } from './idempotency.store';
import { requestFingerprint } from './request-fingerprint';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const ORIGINAL_REQUEST_HEADER = 'Original-Request';
const MAX_KEY_LENGTH = 255;
/**
 * Printable ASCII, the characters gRPC metadata carries (the key travels to the service in it):
 * a tab or a byte beyond ASCII made every call under the key fail with 500, for good.
 */
const VALID_KEY = new RegExp(`^[\\x20-\\x7e]{1,${MAX_KEY_LENGTH}}$`);

type Answer = Omit<StoredResponse, 'requestId'>;

/**
 * Runs `settle` with the response before it is sent, whether it comes from the handler or the
 * error handler, so a retry arriving right after the answer already finds the stored record.
 * The answer goes out even when it could not be stored: the service's own record of the write
 * answers the retry then.
 */
function beforeAnswer(res: Response, settle: (answer: Answer) => Promise<void>, logger: Logger): void {
  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    settle({ status: res.statusCode, body })
      .catch((error: unknown) => logger.error({ err: error, request_id: requestState(res).requestId }, 'could not record idempotent response'))
      .finally(() => send(body));
    return res;
  };
}

function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  return typeof body === 'object' && body !== null && 'error' in body;
}

/**
 * How an answer settles its key. A 5xx may come after the service committed (a timeout, a lost
 * connection), so its outcome is unknown and the retry goes to the service, which answers from
 * its own record. An idempotency error from the service is about the key, not an outcome.
 */
function settle(store: IdempotencyStore, scope: IdempotencyScope, fingerprint: string, response: StoredResponse): Promise<void> {
  if (response.status >= 500) return store.markOutcomeUnknown(scope, fingerprint);
  if (isErrorEnvelope(response.body) && response.body.error.type === 'idempotency_error') return store.release(scope);
  return store.complete(scope, fingerprint, { ...response, body: withoutSecret(response.body) });
}

/**
 * A `secret` in an answer (a minted API key) is shown once and stored nowhere, not even to
 * replay it: the kept answer has it null, as the service's own record does (decision 0025).
 */
function withoutSecret(body: unknown): unknown {
  return typeof body === 'object' && body !== null && typeof (body as { secret?: unknown }).secret === 'string' ? { ...body, secret: null } : body;
}

/**
 * A replay answers under its own request id, in the `Request-Id` header and in a replayed
 * error's `request_id` alike; `Original-Request` names the request that produced it.
 */
function replay(res: Response, stored: StoredResponse): void {
  const { requestId } = requestState(res);
  const body = isErrorEnvelope(stored.body) ? { error: { ...stored.body.error, request_id: requestId } } : stored.body;
  res.set(IDEMPOTENT_REPLAYED_HEADER, 'true').set(ORIGINAL_REQUEST_HEADER, stored.requestId).status(stored.status).json(body);
}

/**
 * Idempotency-Key on POST: the first request with a key runs and its response is kept for
 * 24 h; a repeat replays it; the key with another request, or while the first still runs, is
 * a 409. Placed after validation, so a rejected request stores nothing. The key also travels to
 * the service, which records the write with it (docs/decisions/0009 and 0025).
 */
export function idempotency(store: IdempotencyStore, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    const keys = headerValues(req.rawHeaders, IDEMPOTENCY_KEY_HEADER.toLowerCase());
    if (keys.length > 1) {
      throw new ApiError('parameter_invalid', `Send one ${IDEMPOTENCY_KEY_HEADER}: this request carried ${keys.length} different ones, so it is unclear which one a retry would name.`, {
        param: IDEMPOTENCY_KEY_HEADER,
      });
    }
    const [key] = keys;
    if (key === undefined) return next();
    if (!VALID_KEY.test(key)) {
      throw new ApiError('parameter_invalid', `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters, such as a UUID.`, { param: IDEMPOTENCY_KEY_HEADER });
    }
    const state = requestState(res);
    const caller = state.key!;
    const scope: IdempotencyScope = { accountId: caller.account_id, mode: caller.mode, key };
    const fingerprint = requestFingerprint(req.method, req.path, req.body);

    const existing = await store.reserve(scope, fingerprint);
    if (existing === undefined) {
      state.idempotency = { key, fingerprint, onReplayed: () => res.set(IDEMPOTENT_REPLAYED_HEADER, 'true') };
      beforeAnswer(res, (answer) => settle(store, scope, fingerprint, { ...answer, requestId: state.requestId }), logger);
      return next();
    }
    if (existing.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_key_reused', `This ${IDEMPOTENCY_KEY_HEADER} was already used with a different request; use a new key for a new request.`);
    }
    if (existing.state !== 'completed') {
      throw new ApiError('idempotency_key_in_use', `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry after it completes.`);
    }
    replay(res, existing);
  };
}
