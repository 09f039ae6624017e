import { ApiError } from '@ticketing/errors';
import { firstUnstorableText } from '@ticketing/fields';
import { parameterName } from './validation-error';

/**
 * Text no service can store as sent (decision 0023): PostgreSQL's text and jsonb cannot hold
 * U+0000, so a NUL that reached a service failed its query with a 500; a lone surrogate would be
 * stored as U+FFFD, something the client did not send; a key `__proto__` would be dropped. Checked on every input of every
 * operation, before its schema, so no field can forget it. A bare string body (no parameter to
 * name) is left to the schema to refuse.
 */
export function refuseUnstorableText(input: unknown): void {
  const found = firstUnstorableText(input);
  const param = found && parameterName(found.path);
  if (found && param !== undefined) throw new ApiError('parameter_invalid', `Invalid ${param}: ${found.why}.`, { param });
}
