import type { ErrorRequestHandler, Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { ApiError } from '@ticketing/errors';
import type { Logger } from '@ticketing/observability';
import { setRetryAfter } from './error-handler.middleware';

/** Where the pages behind delivery links live, here and on ticketing's page server (decision 0035). */
export const TICKET_PAGE_PATH = '/d';
/** Where the sandbox's authentication pages live, here and on payments' page server (decision 0061). */
export const SANDBOX_PAGE_PATH = '/sandbox';

const PAGE_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };

/** A page for a holder's browser that says why no ticket is shown and what to do. */
const refusalPage = (title: string, advice: string) => `<!doctype html><title>${title}</title><h1>${title}</h1><p>${advice}</p>`;

/**
 * Forwards the pages a service serves to browsers (ticket pages to ticketing, the sandbox's to
 * payments), so the gateway stays the only public entry. Mounted at `path`, which Express
 * strips; the path is put back for the service. The service unreachable answers a plain 503 page.
 */
export function forwardPages(path: string, target: string, service: string, logger: Logger) {
  return createProxyMiddleware<Request, Response>({
    target,
    pathRewrite: (rest) => `${path}${rest}`,
    xfwd: true,
    on: {
      error: (error, _req, res) => {
        logger.warn({ err: error, path }, `page not forwarded: ${service} unreachable`);
        if ('writeHead' in res && !res.headersSent) {
          res.writeHead(503, PAGE_HEADERS);
          res.end(refusalPage('This page is not available right now', 'Try again in a minute.'));
        }
      },
    },
  });
}

/**
 * A page the gateway refused before forwarding it (the per-address rate limit, or Redis not
 * answering) is a page too, with the refusal's status and Retry-After: whoever opened the link
 * is in a browser, where the API's JSON envelope would mean nothing.
 */
export const pageRefused: ErrorRequestHandler = (error: unknown, _req, res, next) => {
  if (!(error instanceof ApiError) || res.headersSent) return next(error);
  setRetryAfter(res, error);
  res.writeHead(error.status, PAGE_HEADERS);
  res.end(
    error.code === 'rate_limited'
      ? refusalPage('Too many requests', `This address opened too many pages at once. Wait ${String(res.getHeader('Retry-After') ?? 1)} seconds, then reload.`)
      : refusalPage('This page is not available right now', 'Try again in a minute.'),
  );
};
