import type { RequestHandler } from 'express';
import { newId } from '@ticketing/ids';
import { requestState } from './request-state';

export const REQUEST_ID_HEADER = 'Request-Id';

/** Every request gets its own `req_…`, echoed in the header and in any error envelope. */
export const assignRequestId: RequestHandler = (_req, res, next) => {
  const requestId = newId('req');
  requestState(res).requestId = requestId;
  res.set(REQUEST_ID_HEADER, requestId);
  next();
};
