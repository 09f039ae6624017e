import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * Statements with more parameters than this run unnamed when their SQL holds a list of
 * parameters (below): such SQL varies with the length of an `IN (…)` list, so naming it would
 * leave one prepared statement per length in every connection.
 */
export const MAX_PREPARED_PARAMETERS = 16;

/**
 * A list of two or more bare parameters in parentheses or brackets, `IN ($1, $2, …)`,
 * `VALUES ($1, $2, …)` or `ARRAY[$1, $2, …]`: the shape whose length follows a list's. The
 * batched statements pass each list as one array parameter (`unnest($1::text[], …)`), so their
 * SQL is the same whatever the batch's size, however many parameters it has.
 */
const PARAMETER_LIST = /[([]\s*\$\d+(?:\s*,\s*\$\d+)+\s*[)\]]/;

/** What the adapter hands the generator: the SQL text and its arguments. */
export interface SqlStatement {
  sql: string;
  args: readonly unknown[];
}

/**
 * Names each statement after a hash of its SQL, so node-postgres prepares it once per connection
 * and PostgreSQL skips parsing and, once it settles on a generic plan, planning on every later
 * run: for catalog's event read that was about 0.8 of the 1 ms PostgreSQL spent per call, for
 * ticketing's recording of a batch of sales 0.77 ms of planning alone. The empty name means
 * "unnamed", which node-postgres parses and plans each time, as without a generator.
 */
export function preparedStatementNames(): (statement: SqlStatement) => string {
  const names = new LRUCache<string, string>({ max: 2_000 });
  return ({ sql, args }) => {
    // A statement named before is answered from the cache, without reading its SQL again.
    let name = names.get(sql);
    if (name !== undefined) return name;
    if (args.length > MAX_PREPARED_PARAMETERS && PARAMETER_LIST.test(sql)) return '';
    name = `prisma_${createHash('sha256').update(sql).digest('base64url').slice(0, 32)}`;
    names.set(sql, name);
    return name;
  };
}
