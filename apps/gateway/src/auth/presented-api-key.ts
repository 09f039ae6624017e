import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '@ticketing/errors';

const BEARER = /^Bearer(?:\s+(.*))?$/i;

function missing(): ApiError {
  return new ApiError('missing_api_key', 'No API key provided. Send it as "Authorization: Bearer <API_KEY>" (or in the x-api-key header).');
}

const twoKeys = () => new ApiError('invalid_api_key', 'Two different API keys were sent (in Authorization headers or x-api-key); send one.');

/**
 * The key the caller sent: `Authorization: Bearer <key>`, or `x-api-key`. Both may be sent only
 * with the same key: two different keys leave it unclear whose request this is. Node keeps the
 * first of repeated Authorization headers, so `rawHeaders` is read for the others.
 */
export function presentedApiKey(headers: IncomingHttpHeaders, rawHeaders: readonly string[] = []): string {
  const header = headers['x-api-key'];
  const inHeader = typeof header === 'string' ? header.trim() : '';
  const authorization = headers.authorization;
  if (authorization === undefined || authorization.trim() === '') {
    if (inHeader === '') throw missing();
    return inHeader;
  }
  const bearer = BEARER.exec(authorization.trim());
  if (!bearer) throw new ApiError('invalid_api_key', 'The Authorization header must use the Bearer scheme: "Authorization: Bearer <API_KEY>".');
  const key = (bearer[1] ?? '').trim();
  if (key === '') {
    if (inHeader === '') throw missing();
    return inHeader;
  }
  if (inHeader !== '' && inHeader !== key) throw twoKeys();
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]!.toLowerCase() === 'authorization' && rawHeaders[index + 1]!.trim() !== authorization.trim()) throw twoKeys();
  }
  return key;
}
