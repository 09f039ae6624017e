import type { as } from './api';

export type Client = ReturnType<typeof as>;

/** The ids of a list page, in order. */
export const ids = (page: { data: Array<{ id: string }> }): string[] => page.data.map((item) => item.id);

/**
 * Every item of a list, walked page by page with starting_after, checking each page's envelope;
 * also the has_more flag of every page, so a test can check where the walk said it ended.
 */
export async function walkList(api: Client, path: string, limit: number): Promise<{ ids: string[]; hasMoreFlags: boolean[] }> {
  const seen: string[] = [];
  const hasMoreFlags: boolean[] = [];
  const separator = path.includes('?') ? '&' : '?';
  let cursor = '';
  for (let pages = 1; pages <= 50; pages += 1) {
    const response = await api.get(`${path}${separator}limit=${limit}${cursor ? `&starting_after=${cursor}` : ''}`);
    expect(response.status).toBe(200);
    expect(response.body.object).toBe('list');
    expect(response.body.data.length).toBeLessThanOrEqual(limit);
    seen.push(...ids(response.body));
    hasMoreFlags.push(response.body.has_more);
    if (!response.body.has_more) return { ids: seen, hasMoreFlags };
    cursor = response.body.data.at(-1).id;
  }
  throw new Error(`${path} did not end within 50 pages`);
}
