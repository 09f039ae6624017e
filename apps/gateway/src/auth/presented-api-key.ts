import { ApiError } from '@ticketing/errors';
import { headerValues } from '../http/header-values';

const BEARER = /^Bearer(?:\s+(.*))?$/i;

function missing(): ApiError {
  return new ApiError('missing_api_key', 'No API key provided. Send it as "Authorization: Bearer <API_KEY>" (or in the x-api-key header).');
}

const twoKeys = () => new ApiError('invalid_api_key', 'Two different API keys were sent (in Authorization headers or x-api-key); send one.');

/** The key of an `Authorization` header's value ('' for none); another scheme than Bearer is refused. */
function bearerKey(authorization: string): string {
  if (authorization === '') return '';
  const bearer = BEARER.exec(authorization);
  if (!bearer) throw new ApiError('invalid_api_key', 'The Authorization header must use the Bearer scheme: "Authorization: Bearer <API_KEY>".');
  return (bearer[1] ?? '').trim();
}

/**
 * The key the caller sent, given the request's raw headers: `Authorization: Bearer <key>`, or
 * `x-api-key`. Both, or either repeated, may be sent only with the same key: two different keys
 * leave it unclear whose request this is.
 */
export function presentedApiKey(rawHeaders: readonly string[]): string {
  const sent = [...headerValues(rawHeaders, 'authorization').map(bearerKey), ...headerValues(rawHeaders, 'x-api-key')];
  const keys = new Set(sent.filter((key) => key !== ''));
  if (keys.size > 1) throw twoKeys();
  const [key] = keys;
  if (key === undefined) throw missing();
  return key;
}
