import { lateForwarder, waitFor } from '@ticketing/testing';
import { as, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';
import { onSale, sale } from './support/on-sale';
import { restart } from './support/processes';
import { subscribeToEveryEvent } from './support/webhook-trail';

describe('a service started while Kafka or Redis is unreachable serves, and catches up when it returns', () => {
  it('catalog serves with Kafka unreachable, and publishes what it committed once Kafka answers', async () => {
    const api = as((await createAccount()).secret_key);
    await subscribeToEveryEvent(api);
    const kafka = await lateForwarder({ host: '127.0.0.1', port: 9092 });
    try {
      await restart('catalog', { KAFKA_BROKERS: `127.0.0.1:${kafka.port}` });

      const created = await api.post('/v1/events', { name: 'Started without Kafka', starts_at: '2099-08-01T18:00:00Z' });
      expect(created.status).toBe(200);
      const eventId: string = created.body.id;
      const published = () => queryServiceDatabase<{ published_at: Date | null }>('catalog', 'SELECT published_at FROM outbox_messages WHERE message_key = $1', [eventId]);
      expect(await published()).toEqual([{ published_at: null }]);

      await kafka.open();
      const recorded = await waitFor(
        'webhooks to record the event catalog published',
        async () => {
          const rows = await queryServiceDatabase<{ type: string }>('webhooks', `SELECT type FROM notifications WHERE data->>'event_id' = $1`, [eventId]);
          return rows.length > 0 ? rows : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 250 },
      );
      expect(recorded).toEqual([{ type: 'event.created' }]);
    } finally {
      await restart('catalog');
      await kafka.close();
    }
  }, 180_000);

  it('identity and ticketing serve with Redis unreachable: keys are verified, tickets sold, and the waiting room answers 503', async () => {
    const redis = await lateForwarder({ host: '127.0.0.1', port: 6379 });
    try {
      const unreachable = { REDIS_URL: `redis://127.0.0.1:${redis.port}` };
      await Promise.all([restart('identity', unreachable), restart('ticketing', unreachable)]);
      // A new account's key: the gateway has not seen it, so identity verifies it.
      const api = as((await createAccount()).secret_key);

      const { eventId, tierId } = await onSale(api);
      const sold = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId));

      expect(sold.status).toBe(200);
      expect(sold.body.tickets).toHaveLength(2);

      // The waiting room lives in Redis: joining it is refused, as a retryable 503, not a 500.
      expect((await api.patch(`/v1/events/${eventId}`, { waiting_room: { enabled: true, admission_rate_per_minute: 60 } })).status).toBe(200);
      const joined = await waitFor('ticketing to hear the room is enabled', async () => {
        const answer = await api.post(`/v1/events/${eventId}/queue/join`, {});
        return answer.status === 409 ? undefined : answer;
      });
      expect(joined.status).toBe(503);
      expect(joined.body.error.code).toBe('service_unavailable');
    } finally {
      await Promise.all([restart('identity'), restart('ticketing')]);
      await redis.close();
    }
  }, 180_000);
});
