import type { RequestHandler } from 'express';
import type { Logger } from '@ticketing/observability';
import type { HttpMetrics } from './http-metrics';
import { requestState } from './request-state';

/**
 * The status logged and counted for a request whose client went away before it was answered:
 * nginx's "client closed request", so such requests are neither counted as answered nor lost.
 */
const CLIENT_CLOSED_REQUEST = 499;

/** One JSON line and one metric sample per request, once it is answered (or abandoned). */
export function accessLog(logger: Logger, metrics: HttpMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // Read now: routers mounted on a prefix rewrite req.url while they run.
    const path = req.path;
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const { requestId, route, key } = requestState(res);
      // Until an answer starts, statusCode is only Node's default 200.
      const status = res.headersSent ? res.statusCode : CLIENT_CLOSED_REQUEST;
      metrics.observe(req.method, route?.path ?? 'unmatched', status, seconds);
      logger.info(
        {
          request_id: requestId,
          method: req.method,
          path,
          status,
          duration_ms: Math.round(seconds * 1e4) / 10,
          operation: route?.operationId,
          account_id: key?.account_id,
          mode: key?.mode,
          key_prefix: key?.prefix,
          aborted: !res.writableFinished || undefined,
        },
        'request',
      );
    });
    next();
  };
}
