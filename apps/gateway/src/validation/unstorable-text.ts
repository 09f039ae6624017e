import { ApiError } from '@ticketing/errors';
import { parameterName } from './validation-error';

type InputPath = PropertyKey[];

/** A value inside the input and how it was reached; paths are rebuilt only for the culprit. */
interface Visit {
  value: unknown;
  key?: PropertyKey;
  parent?: Visit;
}

function pathOf(visit: Visit): InputPath {
  const path: InputPath = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.push(at.key!);
  return path.reverse();
}

/** A UTF-16 surrogate without its pair: JSON's `\ud800` escapes make one, and no UTF-8 store can hold it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why an object key cannot be kept as sent, if it cannot: as a string, or `__proto__`, which
 * JSON decodes as a key but a JavaScript object built from it drops (it sets the prototype), so
 * a metadata entry named so vanished from a 200 answer.
 */
function unstorableKey(key: string): string | undefined {
  if (key === '__proto__') return "must not be named '__proto__', a name JavaScript reserves; use another key";
  return unstorable(key);
}

/** Why a string cannot be stored as sent, if it cannot. */
function unstorable(text: string): string | undefined {
  if (text.includes('\0')) return 'must not contain the NUL character (U+0000)';
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return `must be well-formed Unicode, not hold a lone surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()})`;
  return undefined;
}

/**
 * The first string or object key of a decoded input (path parameters, query or JSON body) that
 * cannot be stored, where it sits and why. Iterative and linear, so a deeply nested body costs no
 * more than a flat one of the same size.
 */
function firstUnstorable(input: unknown): { path: InputPath; why: string } | undefined {
  const pending: Visit[] = [{ value: input }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      const why = unstorable(value);
      if (why) return { path: pathOf(visit), why };
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) pending.push({ value: value[index], key: index, parent: visit });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (const [key] of entries) {
        const why = unstorableKey(key);
        if (why) return { path: [...pathOf(visit), key], why };
      }
      for (const [key, item] of entries.reverse()) pending.push({ value: item, key, parent: visit });
    }
  }
  return undefined;
}

/**
 * Text no service can store as sent (decision 0023): PostgreSQL's text and jsonb cannot hold
 * U+0000, so a NUL that reached a service failed its query with a 500; a lone surrogate would be
 * stored as U+FFFD, something the client did not send; a key `__proto__` would be dropped. Checked on every input of every
 * operation, before its schema, so no field can forget it. A bare string body (no parameter to
 * name) is left to the schema to refuse.
 */
export function refuseUnstorableText(input: unknown): void {
  const found = firstUnstorable(input);
  const param = found && parameterName(found.path);
  if (found && param !== undefined) throw new ApiError('parameter_invalid', `Invalid ${param}: ${found.why}.`, { param });
}
