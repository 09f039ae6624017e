import { z } from 'zod';
import { clampLimit, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '@ticketing/pagination';
import type { commonV1 } from '@ticketing/contracts';

const limit = z
  .string()
  .regex(/^-?\d+$/, 'must be an integer')
  .transform((value) => clampLimit(Number(value)))
  .meta({ description: `Items per page, ${DEFAULT_PAGE_LIMIT} by default; values outside 1..${MAX_PAGE_LIMIT} are clamped.`, example: '20' });

const startingAfter = z.string().min(1).max(255).meta({ description: 'Id of the last item of the previous page; returns the items after it.' });

/** The query every list operation accepts; filters extend it (`listQuery.extend({ event_id })`). */
export const listQuery = z.strictObject({ limit: limit.optional(), starting_after: startingAfter.optional() });

export function pageRequest(query: z.output<typeof listQuery>): commonV1.PageRequest {
  return { limit: query.limit ?? clampLimit(undefined), starting_after: query.starting_after ?? '' };
}
