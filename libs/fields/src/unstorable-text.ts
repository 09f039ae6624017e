/** Where a value sits inside a decoded input: object keys and array indexes, outermost first. */
export type InputPath = PropertyKey[];

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
 * The first string or object key of a decoded input (an API request's parameters or body, a
 * Kafka message) that PostgreSQL cannot store as sent, where it sits and why (decision 0023):
 * a NUL, which text and jsonb cannot hold; a lone surrogate, which would be stored as U+FFFD;
 * a key `__proto__`, which would be dropped. Iterative and linear, so a deeply nested input costs
 * no more than a flat one of the same size.
 */
export function firstUnstorableText(input: unknown): { path: InputPath; why: string } | undefined {
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
