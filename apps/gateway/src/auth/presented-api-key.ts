import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '@ticketing/errors';

const BEARER = /^Bearer(?:\s+(.*))?$/i;

function missing(): ApiError {
  return new ApiError('missing_api_key', 'No API key provided. Send it as "Authorization: Bearer <API_KEY>" (or in the x-api-key header).');
}

/**
 * The key the caller sent: `Authorization: Bearer <key>`, or `x-api-key`. Both may be sent only
 * with the same key: two different keys leave it unclear whose request this is.
 */
export function presentedApiKey(headers: IncomingHttpHeaders): string {
  const header = headers['x-api-key'];
  const inHeader = typeof header === 'string' ? header.trim() : '';
  const authorization = headers.authorization;
  if (authorization !== undefined && authorization.trim() !== '') {
    const bearer = BEARER.exec(authorization.trim());
    if (!bearer) throw new ApiError('invalid_api_key', 'The Authorization header must use the Bearer scheme: "Authorization: Bearer <API_KEY>".');
    const key = (bearer[1] ?? '').trim();
    if (key === '') throw missing();
    if (inHeader !== '' && inHeader !== key) throw new ApiError('invalid_api_key', 'Two different API keys were sent, in Authorization and in x-api-key; send one.');
    return key;
  }
  if (inHeader === '') throw missing();
  return inHeader;
}
