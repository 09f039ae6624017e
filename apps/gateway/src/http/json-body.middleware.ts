import express, { type RequestHandler } from 'express';
import { ApiError } from '@ticketing/errors';

export const BODY_LIMIT = '100kb';

const parseJson = express.json({ limit: BODY_LIMIT });

/** An empty body (fetch sends `Content-Length: 0` on a POST without one) is no body. */
const isEmpty = (req: Parameters<RequestHandler>[0]) => req.headers['content-length'] === '0';

const requireJson: RequestHandler = (req, _res, next) => {
  // `is` answers null when there is no body at all, which is fine: it validates as `{}`.
  if (req.is('application/json') === false && !isEmpty(req)) {
    throw new ApiError('unsupported_media_type', 'Send the request body as JSON with "Content-Type: application/json".');
  }
  next();
};

/** Reads a JSON body of at most 100 kB; parse failures surface in the error handler. */
export const jsonBody: RequestHandler[] = [parseJson, requireJson];
