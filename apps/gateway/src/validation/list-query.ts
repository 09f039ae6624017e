import { z } from 'zod';
import { clampLimit, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '@ticketing/pagination';
import type { commonV1 } from '@ticketing/contracts';
import { anyId } from './fields';

/**
 * Query strings arrive as text: digits become a number, anything else fails as "must be an
 * integer". Every integer is clamped, those past what a number holds exactly included, so they
 * are held just outside the page range first.
 */
const limitText = (value: unknown) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Math.min(Math.max(Number(value), 0), MAX_PAGE_LIMIT + 1) : value);

// A preprocess (not a string transform) so the document types limit as the integer it is.
const limit = z
  .preprocess(limitText, z.number({ error: 'must be an integer' }).int('must be an integer').transform(clampLimit))
  .meta({ description: `Items per page, ${DEFAULT_PAGE_LIMIT} by default; values outside 1..${MAX_PAGE_LIMIT} are clamped.`, example: DEFAULT_PAGE_LIMIT });

const startingAfter = anyId.meta({ description: 'Id of the last item of the previous page; returns the items after it.' });

/** The query every list operation accepts; filters extend it (`listQuery.extend({ event_id })`). */
export const listQuery = z.strictObject({ limit: limit.optional(), starting_after: startingAfter.optional() });

export function pageRequest(query: z.output<typeof listQuery>): commonV1.PageRequest {
  return { limit: query.limit ?? clampLimit(undefined), starting_after: query.starting_after ?? '' };
}
