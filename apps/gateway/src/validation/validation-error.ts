import type { z } from 'zod';
import { ApiError } from '@ticketing/errors';

type IssuePath = readonly PropertyKey[];

/** The most characters of a key that an error repeats. */
const SHOWN_KEY_LENGTH = 40;
/** What an error must not repeat as sent: control characters, and surrogates without their pair, which strict JSON decoders refuse. */
const UNSHOWABLE = /\p{Cc}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/** A key as an error names it: unshowable characters written as `\uXXXX`, and a long one cut short with "…". */
function shownKey(key: string): string {
  const shown = key.replace(UNSHOWABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const characters = [...shown];
  return characters.length > SHOWN_KEY_LENGTH ? `${characters.slice(0, SHOWN_KEY_LENGTH).join('')}…` : shown;
}

/** `scopes[1]`, `address.city`: how the public API names a field inside the request. */
export function parameterName(path: IssuePath): string | undefined {
  let name = '';
  for (const segment of path) {
    if (typeof segment === 'number') name += `[${segment}]`;
    else name += name === '' ? shownKey(String(segment)) : `.${shownKey(String(segment))}`;
  }
  return name === '' ? undefined : name;
}

function valueAt(input: unknown, path: IssuePath): unknown {
  let value = input;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

function withPeriod(message: string): string {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

/** Where the input came from: a query string carries a parameter given twice as an array of its values. */
export type InputSource = 'params' | 'query' | 'body';

function toApiError(issue: z.core.$ZodIssue, input: unknown, source: InputSource): ApiError {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    if (key === '') {
      const within = parameterName(issue.path);
      return new ApiError('parameter_unknown', `Received a parameter with an empty name${within === undefined ? '' : ` in ${within}`}; remove it.`, { param: within });
    }
    const param = parameterName([...issue.path, key]);
    return new ApiError('parameter_unknown', `Received unknown parameter: ${param}.`, { param });
  }
  const param = parameterName(issue.path);
  if (issue.code === 'invalid_key') {
    // A key of a map such as metadata: say what keys must be, not zod's "Invalid key in record".
    const why = issue.issues[0]?.message ?? 'is not allowed';
    return new ApiError('parameter_invalid', `Invalid key '${shownKey(String(issue.path.at(-1)))}' in ${parameterName(issue.path.slice(0, -1))}: keys ${withPeriod(why)}`, { param });
  }
  if (issue.code === 'custom' && issue.params?.code === 'parameter_missing') {
    return new ApiError('parameter_missing', withPeriod(issue.message), { param });
  }
  if (param === undefined) {
    return new ApiError('parameter_invalid', issue.code === 'invalid_type' ? 'The request body must be a JSON object.' : withPeriod(issue.message));
  }
  const value = valueAt(input, issue.path);
  // An absent optional field raises no issue, so an issue about an absent one means it is required.
  if (value === undefined) {
    return new ApiError('parameter_missing', `Missing required parameter: ${param}.`, { param });
  }
  if (value === null && issue.code === 'invalid_type') {
    // zod would say "expected string, received null"; the API says what it takes instead.
    const article = /^[aeiou]/.test(issue.expected) ? 'an' : 'a';
    return new ApiError('parameter_invalid', `Invalid ${param}: must be ${article} ${issue.expected}, not null.`, { param });
  }
  if (source === 'query' && issue.path.length === 1 && Array.isArray(value)) {
    return new ApiError('parameter_invalid', `Invalid ${param}: it was given ${value.length} times; give it once.`, { param });
  }
  return new ApiError('parameter_invalid', `Invalid ${param}: ${withPeriod(issue.message)}`, { param });
}

/**
 * The one error a failed validation answers with. Unknown parameters are reported first: a
 * misspelt field usually also makes the real one "missing", and the typo is the news.
 */
export function validationError(error: z.ZodError, input: unknown, source: InputSource): ApiError {
  const issue = error.issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? error.issues[0]!;
  return toApiError(issue, input, source);
}
