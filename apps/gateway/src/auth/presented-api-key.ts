import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '@ticketing/errors';

const BEARER = /^Bearer(?:\s+(.*))?$/i;

function missing(): ApiError {
  return new ApiError('missing_api_key', 'No API key provided. Send it as "Authorization: Bearer <API_KEY>" (or in the x-api-key header).');
}

/** The key the caller sent: `Authorization: Bearer <key>` first, else `x-api-key`. */
export function presentedApiKey(headers: IncomingHttpHeaders): string {
  const authorization = headers.authorization;
  if (authorization !== undefined && authorization.trim() !== '') {
    const bearer = BEARER.exec(authorization.trim());
    if (!bearer) throw new ApiError('invalid_api_key', 'The Authorization header must use the Bearer scheme: "Authorization: Bearer <API_KEY>".');
    const key = (bearer[1] ?? '').trim();
    if (key === '') throw missing();
    return key;
  }
  const header = headers['x-api-key'];
  const key = typeof header === 'string' ? header.trim() : '';
  if (key === '') throw missing();
  return key;
}
