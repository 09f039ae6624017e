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

/**
 * Where the first U+0000 sits in a decoded input (path parameters, query or JSON body), in a
 * string or an object key. Iterative and linear, so a deeply nested body costs no more than a
 * flat one of the same size.
 */
function pathToNulCharacter(input: unknown): InputPath | undefined {
  const pending: Visit[] = [{ value: input }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes('\0')) return pathOf(visit);
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) pending.push({ value: value[index], key: index, parent: visit });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (const [key] of entries) if (key.includes('\0')) return [...pathOf(visit), key];
      for (const [key, item] of entries.reverse()) pending.push({ value: item, key, parent: visit });
    }
  }
  return undefined;
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000: a NUL that reached a service would fail its
 * query with a 500. Checked on every input of every operation, before its schema, so no field
 * can forget it. A bare string body (no parameter to name) is left to the schema to refuse.
 */
export function refuseNulCharacter(input: unknown): void {
  const path = pathToNulCharacter(input);
  const param = path && parameterName(path);
  if (param !== undefined) {
    throw new ApiError('parameter_invalid', `Invalid ${param}: must not contain the NUL character (U+0000).`, { param });
  }
}
