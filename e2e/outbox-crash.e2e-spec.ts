import { waitFor } from '@ticketing/testing';
import { as, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';
import { kill, restart } from './support/processes';
import { subscribeToEveryEvent } from './support/webhook-trail';

/**
 * Catalog dies (SIGKILL) after the event's transaction commits and before its relay publishes.
 * The message must survive in the outbox and reach webhooks exactly once after a restart,
 * and a second publication of the same message must not be applied twice.
 */
describe('outbox: no event is lost or applied twice when catalog crashes', () => {
  const outboxRow = async (eventId: string) =>
    (await queryServiceDatabase<{ id: string; published_at: Date | null }>('catalog', `SELECT id, published_at FROM outbox_messages WHERE message_key = $1 ORDER BY position`, [eventId]))[0];

  const notifications = (eventId: string) =>
    queryServiceDatabase<{ type: string; source_event_id: string }>('webhooks', `SELECT type, source_event_id FROM notifications WHERE data->>'event_id' = $1 ORDER BY id`, [eventId]);

  it('publishes the committed event after a restart, and records it once', async () => {
    const api = as((await createAccount()).secret_key);
    await subscribeToEveryEvent(api);
    // A relay that waits ten minutes before its first poll and is not woken by commits: nothing written now gets published.
    const stalled = await restart('catalog', { OUTBOX_POLL_INTERVAL_MS: '600000', OUTBOX_LISTEN: 'false' });

    const created = await api.post('/v1/events', { name: 'Crash Test Live', starts_at: '2027-08-01T18:00:00Z' });
    expect(created.status).toBe(200);
    const eventId: string = created.body.id;
    expect(await outboxRow(eventId)).toMatchObject({ published_at: null });

    await kill(stalled.process.pid!);
    await restart('catalog');

    const [recorded] = await waitFor('webhooks to record the event', async () => {
      const rows = await notifications(eventId);
      return rows.length > 0 ? rows : undefined;
    });
    expect(recorded).toMatchObject({ type: 'event.created' });

    // Publish the same message again, as a relay that died before marking it would.
    const row = (await outboxRow(eventId))!;
    await queryServiceDatabase('catalog', 'UPDATE outbox_messages SET published_at = NULL WHERE id = $1', [row.id]);
    await waitFor('the relay to republish', async () => ((await outboxRow(eventId))?.published_at ? true : undefined));
    // A later event on the same key is consumed after the duplicate (one partition, in order).
    expect((await api.patch(`/v1/events/${eventId}`, { name: 'Crash Test Live II' })).status).toBe(200);
    await waitFor('the update to be recorded', async () => ((await notifications(eventId)).length >= 2 ? true : undefined));

    expect((await notifications(eventId)).map((notification) => notification.type)).toEqual(['event.created', 'event.updated']);
  });
});
