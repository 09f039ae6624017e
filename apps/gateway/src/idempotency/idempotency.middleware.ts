import type { RequestHandler, Response } from 'express';
import { ApiError } from '@ticketing/errors';
import type { Logger } from '@ticketing/observability';
import { requestState } from '../http/request-state';
import type { IdempotencyScope, IdempotencyStore, StoredResponse } from './idempotency.store';
import { requestFingerprint } from './request-fingerprint';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const MAX_KEY_LENGTH = 255;

/**
 * Runs `settle` with the response before it is sent, whether it comes from the handler or the
 * error handler, so a retry arriving right after the answer already finds the stored record.
 */
function beforeAnswer(res: Response, settle: (response: StoredResponse) => Promise<void>, logger: Logger): void {
  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    settle({ status: res.statusCode, body })
      .catch((error: unknown) => logger.error({ err: error, request_id: requestState(res).requestId }, 'could not record idempotent response'))
      .finally(() => send(body));
    return res;
  };
}

/**
 * Idempotency-Key on POST: the first request with a key runs and its response is kept for
 * 24 h; a repeat replays it; the key with another request, or while the first still runs, is
 * a 409. Placed after validation, so a rejected request stores nothing. A 5xx releases the key.
 */
export function idempotency(store: IdempotencyStore, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    const key = req.get(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) return next();
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new ApiError('parameter_invalid', `${IDEMPOTENCY_KEY_HEADER} must be 1 to ${MAX_KEY_LENGTH} characters.`, { param: IDEMPOTENCY_KEY_HEADER });
    }
    const caller = requestState(res).key!;
    const scope: IdempotencyScope = { accountId: caller.account_id, mode: caller.mode, key };
    const fingerprint = requestFingerprint(req.method, req.path, req.body);

    const existing = await store.reserve(scope, fingerprint);
    if (existing === undefined) {
      beforeAnswer(res, (response) => (response.status >= 500 ? store.release(scope) : store.complete(scope, fingerprint, response)), logger);
      return next();
    }
    if (existing.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_key_reused', `This ${IDEMPOTENCY_KEY_HEADER} was already used with a different request; use a new key for a new request.`);
    }
    if (existing.state === 'in_flight') {
      throw new ApiError('idempotency_key_in_use', `A request with this ${IDEMPOTENCY_KEY_HEADER} is still being processed; retry after it completes.`);
    }
    res.set('Idempotent-Replayed', 'true').status(existing.status).json(existing.body);
  };
}
