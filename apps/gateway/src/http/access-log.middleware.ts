import type { RequestHandler } from 'express';
import { redactApiKeys } from '@ticketing/auth';
import type { Logger } from '@ticketing/observability';
import type { HttpMetrics } from './http-metrics';
import { requestState } from './request-state';
import { TICKET_PAGE_PATH } from './pages.proxy';

/**
 * The status logged and counted for a request whose client went away before it was answered:
 * nginx's "client closed request", so such requests are neither counted as answered nor lost.
 */
const CLIENT_CLOSED_REQUEST = 499;

const TICKET_PAGE_PREFIX = `${TICKET_PAGE_PATH}/`;
const TICKET_PAGE_TEMPLATE = `${TICKET_PAGE_PREFIX}{token}`;
const isTicketPage = (path: string) => path.startsWith(TICKET_PAGE_PREFIX);

/** A signed token (JWS compact form: a delivery link's, a ticket's code), wherever it stands. */
const SIGNED_TOKEN = /eyJ[\w-]*\.[\w-]+\.[\w-]+/g;

/** A path segment holding `@`, as typed or percent-encoded: no operation's path has one, so it is someone's email address. */
const EMAIL_SEGMENT = /[^/]*(?:@|%40)[^/]*/gi;

/**
 * The path as logged, without secrets. A ticket page's path is its delivery link's signed token,
 * which opens the ticket and its QR code for anyone who holds it, so that path is logged as
 * `/d/{token}`, the way an operation's path is counted under its template (decision 0035), and
 * a token anywhere else in a path (`//d/eyJ…`, a 404) as `{token}`. A whole API key pasted into
 * a path (where a key's prefix belongs) is cut to its prefix (decision 0007), and an email address
 * typed into one (`/v1/customers/ann@example.com`) is logged as `{email}`.
 */
function loggedPath(path: string): string {
  return isTicketPage(path) ? TICKET_PAGE_TEMPLATE : redactApiKeys(path).replace(SIGNED_TOKEN, '{token}').replace(EMAIL_SEGMENT, '{email}');
}

/** The route a request is counted under: its operation's path template, ticket pages under theirs, anything else 'unmatched'. */
function metricRoute(path: string, operationPath: string | undefined): string {
  return operationPath ?? (isTicketPage(path) ? TICKET_PAGE_TEMPLATE : 'unmatched');
}

/** One JSON line and one metric sample per request, once it is answered (or abandoned). */
export function accessLog(logger: Logger, metrics: HttpMetrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // Read now: routers mounted on a prefix rewrite req.url while they run.
    const requestPath = req.path;
    const path = loggedPath(requestPath);
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const { requestId, route, key } = requestState(res);
      // Until an answer starts, statusCode is only Node's default 200.
      const status = res.headersSent ? res.statusCode : CLIENT_CLOSED_REQUEST;
      metrics.observe(req.method, metricRoute(requestPath, route?.path), status, seconds);
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
