import type { RequestHandler } from 'express';
import { ApiError } from '@ticketing/errors';
import { headerLines } from './header-values';

/**
 * An HTTP/1.1 request carries exactly one Host header (RFC 9112, section 3.2). Node's server
 * refuses a missing one itself, with a bare 400 that has no error envelope and no request id, so
 * `listen` leaves that to this check, which refuses a repeated one too.
 */
export const requireOneHost: RequestHandler = (req, _res, next) => {
  const hosts = headerLines(req.rawHeaders, 'host').length;
  const needsHost = req.httpVersionMajor > 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1);
  if (hosts > 1 || (hosts === 0 && needsHost)) {
    throw new ApiError('malformed_request', `An HTTP/1.1 request carries exactly one Host header; this one carried ${hosts}.`);
  }
  next();
};
