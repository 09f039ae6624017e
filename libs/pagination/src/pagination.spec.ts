import { ApiError } from '@ticketing/errors';
import { clampLimit, paginate, paginateOrdered, type PageSource } from './pagination';

/** 250 items with ids that sort by age, like platform ids. */
const items = Array.from({ length: 250 }, (_, index) => ({ id: `itm_${String(index).padStart(4, '0')}` }));

const source: PageSource<{ id: string }> = {
  exists: async (id) => items.some((item) => item.id === id),
  fetch: async (take, beforeId) =>
    [...items]
      .reverse()
      .filter((item) => beforeId === undefined || item.id < beforeId)
      .slice(0, take),
};

describe('clampLimit', () => {
  it.each([
    [undefined, 20],
    [0, 1],
    [-5, 1],
    [1, 1],
    [50, 50],
    [100, 100],
    [101, 100],
    [10_000, 100],
  ])('limit %p becomes %p', (input, expected) => {
    expect(clampLimit(input)).toBe(expected);
  });
});

describe('paginate', () => {
  it('defaults to 20 items, newest first', async () => {
    const page = await paginate(undefined, source);
    expect(page.data).toHaveLength(20);
    expect(page.data[0]?.id).toBe('itm_0249');
    expect(page.has_more).toBe(true);
  });

  it('walks every item exactly once with starting_after, ending with has_more false', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = await paginate({ limit: 100, starting_after: cursor }, source);
      seen.push(...page.data.map((item) => item.id));
      if (!page.has_more) break;
      cursor = page.data.at(-1)?.id;
    }
    expect(seen).toEqual(items.map((item) => item.id).reverse());
  });

  it('reports has_more false when the last page is exactly full', async () => {
    const page = await paginate({ limit: 50, starting_after: 'itm_0050' }, source);
    expect(page.data).toHaveLength(50);
    expect(page.has_more).toBe(false);
  });

  it('refuses an unknown cursor with a 400 naming starting_after', async () => {
    const failure = paginate({ limit: 10, starting_after: 'itm_nope' }, source);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after', status: 400 });
  });
});

describe('paginateOrdered', () => {
  /** 45 items ranked in an order of their own: ids neither ascending nor descending. */
  const ranked = Array.from({ length: 45 }, (_, index) => ({ id: `evt_${String((index * 7) % 45).padStart(2, '0')}`, rank: index }));
  const idOf = (item: { id: string }) => item.id;

  it('keeps the given order rather than sorting by id', () => {
    const items = [{ id: 'evt_b' }, { id: 'evt_c' }, { id: 'evt_a' }];
    expect(paginateOrdered(undefined, items, idOf)).toEqual({ data: [{ id: 'evt_b' }, { id: 'evt_c' }, { id: 'evt_a' }], has_more: false });
  });

  it('defaults to 20 items and clamps the limit to 1..100', () => {
    expect(paginateOrdered(undefined, ranked, idOf)).toEqual({ data: ranked.slice(0, 20), has_more: true });
    expect(paginateOrdered({ limit: 0 }, ranked, idOf).data).toHaveLength(20);
    expect(paginateOrdered({ limit: -3 }, ranked, idOf).data).toHaveLength(1);
    expect(paginateOrdered({ limit: 5 }, ranked, idOf).data).toEqual(ranked.slice(0, 5));
    const many = Array.from({ length: 150 }, (_, index) => ({ id: `itm_${index}` }));
    expect(paginateOrdered({ limit: 1000 }, many, idOf)).toEqual({ data: many.slice(0, 100), has_more: true });
  });

  it('reports has_more false when everything fits, also exactly', () => {
    expect(paginateOrdered({ limit: 45 }, ranked, idOf)).toEqual({ data: ranked, has_more: false });
    expect(paginateOrdered({ limit: 44 }, ranked, idOf).has_more).toBe(true);
    expect(paginateOrdered({ limit: 10 }, [], idOf)).toEqual({ data: [], has_more: false });
  });

  it('walks every item exactly once with starting_after, ending with has_more false', () => {
    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = paginateOrdered({ limit: 10, starting_after: cursor }, ranked, idOf);
      seen.push(...page.data.map(idOf));
      hasMore.push(page.has_more);
      if (!page.has_more) break;
      cursor = page.data.at(-1)?.id;
    }
    expect(seen).toEqual(ranked.map(idOf));
    expect(new Set(seen).size).toBe(45);
    expect(hasMore).toEqual([true, true, true, true, false]);
  });

  it('starts right after the item named by starting_after, an empty cursor meaning the start', () => {
    expect(paginateOrdered({ limit: 3, starting_after: ranked[9]?.id }, ranked, idOf)).toEqual({ data: ranked.slice(10, 13), has_more: true });
    expect(paginateOrdered({ limit: 3, starting_after: '' }, ranked, idOf).data).toEqual(ranked.slice(0, 3));
  });

  it('gives an empty last page when the cursor is the last item', () => {
    expect(paginateOrdered({ limit: 10, starting_after: ranked[44]?.id }, ranked, idOf)).toEqual({ data: [], has_more: false });
  });

  it('refuses an unknown cursor with a 400 naming starting_after', () => {
    const act = () => paginateOrdered({ limit: 10, starting_after: 'evt_nope' }, ranked, idOf);
    expect(act).toThrow(ApiError);
    expect(act).toThrow(expect.objectContaining({ code: 'resource_missing', param: 'starting_after', status: 400 }));
    expect(() => paginateOrdered({ limit: 10, starting_after: 'evt_00' }, [], idOf)).toThrow(expect.objectContaining({ param: 'starting_after' }));
  });
});
