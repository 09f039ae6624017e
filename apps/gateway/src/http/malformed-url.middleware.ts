import type { Request, RequestHandler, Response } from 'express';
import { ApiError } from '@ticketing/errors';

/** The text decoded as a URL component (`+` a space, as in a query), or undefined when it is not valid percent-encoding. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** What in the URL is not valid percent-encoding, if anything: the path, or a query parameter (by name, when the name decodes). */
function malformedPart(url: string): { param?: string; where: string } | undefined {
  const queryStart = url.indexOf('?');
  if (decoded(queryStart === -1 ? url : url.slice(0, queryStart)) === undefined) return { where: 'The URL path' };
  if (queryStart === -1) return undefined;
  for (const pair of url.slice(queryStart + 1).split('&')) {
    const equals = pair.indexOf('=');
    const param = decoded(equals === -1 ? pair : pair.slice(0, equals));
    if (param === undefined) return { where: 'A query parameter name' };
    if (equals !== -1 && decoded(pair.slice(equals + 1)) === undefined) return { param, where: `Query parameter ${param}` };
  }
  return undefined;
}

/**
 * A URL that is not valid percent-encoding (`%FF`, a lone `%`) is refused before anything reads
 * it, path and query alike. Otherwise Express refuses a bad path parameter only once a route
 * matched (before its key checks), and the query parser quietly decodes a broken sequence to
 * U+FFFD, which the client did not send. Counted against the client address, as every request no
 * operation serves, so the answer carries that budget's headers.
 */
export function refuseMalformedUrl(countPerClient: (req: Request, res: Response) => Promise<void>): RequestHandler {
  return async (req, res, next) => {
    const malformed = malformedPart(req.url);
    if (!malformed) return next();
    await countPerClient(req, res);
    throw new ApiError('parameter_invalid', `${malformed.where} is not valid percent-encoding; encode it with encodeURIComponent.`, { param: malformed.param });
  };
}
