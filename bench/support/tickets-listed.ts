import type { as } from '../../e2e/support/api';

/** How many tickets the event has, counted page by page through the API. */
export async function ticketsListed(api: ReturnType<typeof as>, eventId: string): Promise<number> {
  let count = 0;
  let cursor = '';
  for (;;) {
    const page = await api.get(`/v1/tickets?event_id=${eventId}&limit=100${cursor ? `&starting_after=${cursor}` : ''}`);
    count += page.body.data.length;
    if (!page.body.has_more) return count;
    cursor = page.body.data.at(-1).id;
  }
}
