import { isUtf8 } from 'node:buffer';
import bytes from 'bytes';
import express, { type RequestHandler } from 'express';
import { ApiError } from '@ticketing/errors';

/** The most a JSON body may hold, in `bytes` notation, unless an operation allows more. */
export const DEFAULT_BODY_LIMIT = '100kb';

/** A body limit as people read it: "100KB", "10MB". */
export const readableLimit = (limit: string | number) => bytes.format(typeof limit === 'number' ? limit : bytes.parse(limit)!);

/** Every operation takes a JSON object; another JSON value (bare or an array) is refused with this. */
export const NOT_AN_OBJECT = 'The request body must be a JSON object.';

/** The body parser's error type for a body that is not UTF-8; the error handler answers it as invalid_json. */
export const NOT_UTF8 = 'entity.not.utf8';

const parseJson = (limit: string) =>
  express.json({
    limit,
    // Bytes that are not UTF-8 would be decoded to U+FFFD and stored so: refused, as the escaped
    // form of the same mistake is (a lone surrogate, decision 0023). The parser wraps what this
    // throws, setting its status, so it is a plain error the error handler recognises by type.
    verify: (_req, _res, body) => {
      if (!isUtf8(body)) throw Object.assign(new Error('request body is not UTF-8'), { type: NOT_UTF8 });
    },
  });

/** An empty body (fetch sends `Content-Length: 0` on a POST without one) is no body. */
const isEmpty = (req: Parameters<RequestHandler>[0]) => req.headers['content-length'] === '0';

const requireJson: RequestHandler = (req, _res, next) => {
  // `is` answers null when there is no body at all, which is fine: it validates as `{}`.
  if (req.is('application/json') === false && !isEmpty(req)) {
    throw new ApiError('unsupported_media_type', 'Send the request body as JSON with "Content-Type: application/json".');
  }
  next();
};

/** The parser takes arrays as well as objects; an array is refused as a bare value is. */
const requireObject: RequestHandler = (req, _res, next) => {
  if (Array.isArray(req.body)) throw new ApiError('invalid_json', NOT_AN_OBJECT);
  next();
};

/** Reads a JSON body of at most `limit`; parse failures, a larger body included, surface in the error handler. */
export const jsonBody = (limit: string): RequestHandler[] => [parseJson(limit), requireJson, requireObject];
