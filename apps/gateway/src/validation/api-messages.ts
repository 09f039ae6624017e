import type { z } from 'zod';

/** How a value a field does not take reads in a message: "a string", "an array". */
function described(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}

/** What a field takes, from zod's name for it. */
const EXPECTED: Record<string, string> = { int: 'a whole number', object: 'an object', array: 'an array' };

/**
 * The message of a wrong type, or of a value outside a set, for a field that gives none of its
 * own, in the API's words ("must be a string, not a number"; "must be one of sale, comp") rather
 * than zod's ("Invalid input: expected string, received number"). Passed to each parse: a
 * field's own message comes first, and zod's stays for every other issue.
 */
export const apiValidationMessages: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type' && issue.input !== undefined) return `must be ${EXPECTED[issue.expected] ?? `a ${issue.expected}`}, not ${described(issue.input)}`;
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map(String).join(', ')}`;
  return undefined;
};
