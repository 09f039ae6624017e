import type { as } from './api';

/**
 * Webhooks stores an event only when an enabled endpoint of its account and mode subscribes to
 * it (decision 0053), so a test that follows events into webhooks' `notifications` subscribes
 * its account first. The endpoint's URL has nothing listening: its deliveries fail and are
 * retried in the background, which changes nothing such a test reads.
 */
export async function subscribeToEveryEvent(api: ReturnType<typeof as>): Promise<void> {
  const created = await api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/events', enabled_events: ['*'] });
  if (created.status !== 200) throw new Error(`the test's webhook endpoint was refused: ${created.status} ${JSON.stringify(created.body)}`);
}
