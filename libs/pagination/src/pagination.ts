import { ApiError } from '@ticketing/errors';

/**
 * The list rules of the spec, in one place: newest first, `limit` defaults to 20 and is
 * clamped to 1..100, `starting_after` is the id of the last item already seen, and an unknown
 * cursor is a 400 that names the parameter.
 */
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || Number.isNaN(limit)) return DEFAULT_PAGE_LIMIT;
  return Math.min(MAX_PAGE_LIMIT, Math.max(1, Math.trunc(limit)));
}

export interface PageRequest {
  limit: number;
  /** Empty or undefined for the first page. */
  starting_after?: string;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
}

export interface ListEnvelope<T> extends Page<T> {
  object: 'list';
}

/** Where the items come from: a repository scoped to one tenant and its filters. */
export interface PageSource<T> {
  /**
   * Whether the cursor names an item of this kind the caller can see, whatever the list's
   * filters: an item that stopped matching them since its page was read (a ticket refunded
   * during a walk by status) still marks its place in the order, and so does one deleted since,
   * where a list's items can be deleted (decision 0049).
   */
  exists(id: string): Promise<boolean>;
  /** Up to `take` items, id descending, all with id below `beforeId` when given. */
  fetch(take: number, beforeId: string | undefined): Promise<T[]>;
}

function unknownCursor(cursor: string): ApiError {
  return new ApiError('resource_missing', `No item with id '${cursor}' to start after; pass the id of the last item of the previous page.`, {
    param: 'starting_after',
  });
}

/** The `where` fragment of PageSource.fetch: rows after the cursor, i.e. with a lower id. */
export function idsBefore(beforeId: string | undefined): { id?: { lt: string } } {
  return beforeId === undefined ? {} : { id: { lt: beforeId } };
}

export async function paginate<T>(request: PageRequest | undefined, source: PageSource<T>): Promise<Page<T>> {
  const limit = clampLimit(request?.limit || undefined);
  const cursor = request?.starting_after || undefined;
  if (cursor !== undefined && !(await source.exists(cursor))) throw unknownCursor(cursor);
  const rows = await source.fetch(limit + 1, cursor);
  return { data: rows.slice(0, limit), has_more: rows.length > limit };
}

/**
 * The same rules over items already in memory and in an order of their own (a ranking rather
 * than newest first): the page after the item whose id is `starting_after`.
 */
export function paginateOrdered<T>(request: PageRequest | undefined, items: readonly T[], idOf: (item: T) => string): Page<T> {
  const limit = clampLimit(request?.limit || undefined);
  const cursor = request?.starting_after || undefined;
  const start = cursor === undefined ? 0 : items.findIndex((item) => idOf(item) === cursor) + 1;
  if (start === 0 && cursor !== undefined) throw unknownCursor(cursor);
  return { data: items.slice(start, start + limit), has_more: items.length > start + limit };
}

export function toListEnvelope<TIn, TOut>(page: Page<TIn>, present: (item: TIn) => TOut): ListEnvelope<TOut> {
  return { object: 'list', data: page.data.map(present), has_more: page.has_more };
}
