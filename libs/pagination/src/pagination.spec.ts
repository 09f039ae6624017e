import { ApiError } from '@ticketing/errors';
import { clampLimit, paginate, type PageSource } from './pagination';

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
