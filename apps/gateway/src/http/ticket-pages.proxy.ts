import type { Request, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import type { Logger } from '@ticketing/observability';

/** Where the pages behind delivery links live, here and on ticketing's page server (decision 0035). */
export const TICKET_PAGE_PATH = '/d';

/**
 * Forwards ticket pages to ticketing, so the gateway stays the only public entry. Mounted at
 * TICKET_PAGE_PATH, which Express strips; the path is put back for ticketing. Ticketing
 * unreachable answers a plain 503 page.
 */
export function ticketPages(target: string, logger: Logger) {
  return createProxyMiddleware<Request, Response>({
    target,
    pathRewrite: (path) => `${TICKET_PAGE_PATH}${path}`,
    xfwd: true,
    on: {
      error: (error, _req, res) => {
        logger.warn({ err: error }, 'ticket page not forwarded: ticketing unreachable');
        if ('writeHead' in res && !res.headersSent) {
          res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end('<!doctype html><title>Not available</title><h1>This page is not available right now</h1><p>Try again in a minute.</p>');
        }
      },
    },
  });
}
