import path from 'node:path';
import type { DomainEventEnvelope } from '@ticketing/contracts';
import { newId } from '@ticketing/ids';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createWebhooksPrisma, type PrismaClient } from '../src/db';
import { EndpointSecrets } from '../src/secrets/endpoint-secrets';
import { CreateEndpointUseCase } from '../src/usecases/create-endpoint/create-endpoint.usecase';
import { RecordNotificationUseCase } from '../src/usecases/record-notification/record-notification.usecase';

describe('recording notifications (real PostgreSQL)', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;
  let recordNotification: RecordNotificationUseCase;

  beforeAll(async () => {
    database = await createTestDatabase('webhooks', path.join(__dirname, '../prisma/migrations'));
    prisma = createWebhooksPrisma(database.url);
    recordNotification = new RecordNotificationUseCase(prisma);
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await database.drop();
  });

  const eventCreated = (): DomainEventEnvelope => ({
    id: newId('msg'),
    type: 'event.created',
    account_id: 'acct_a',
    mode: 'live',
    occurred_at: '2027-01-01T00:00:00.000Z',
    data: { event_id: 'evt_1', name: 'Show', starts_at: '2027-02-01T20:00:00.000Z' },
  });

  const endpoint = (accountId: string, enabledEvents: string[], mode: 'live' | 'test' = 'live') =>
    new CreateEndpointUseCase(prisma, new EndpointSecrets(Buffer.alloc(32, 1)), { allowLocalHttp: true }).execute(
      { accountId, mode },
      { url: 'https://hooks.example.com/a', enabled_events: enabledEvents, description: '', metadata: {} },
    );

  it('records an event once however often it is delivered, concurrently or not', async () => {
    const accountId = newId('acct');
    await endpoint(accountId, ['event.created']);
    const event = { ...eventCreated(), account_id: accountId };
    const outcomes = await Promise.allSettled([recordNotification.execute(event), recordNotification.execute(event), recordNotification.execute(event)]);
    expect(await recordNotification.execute(event)).toBeNull();
    const created = outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value === 1);
    expect(created).toHaveLength(1);

    const rows = await prisma.notification.findMany({ where: { source_event_id: event.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ account_id: accountId, mode: 'live', type: 'event.created' });
    expect(await prisma.webhookDelivery.count({ where: { notification_id: rows[0]!.id } })).toBe(1);
  });

  it('stores nothing of an event no enabled endpoint of its account and mode subscribes to, and stores it once one does', async () => {
    const accountId = newId('acct');
    await endpoint(accountId, ['event.updated']);
    const disabled = await endpoint(accountId, ['*']);
    await prisma.webhookEndpoint.update({ where: { id: disabled.id }, data: { disabled_reason: 'by_request' } });
    await endpoint(accountId, ['*'], 'test');
    const event = { ...eventCreated(), account_id: accountId };

    expect(await recordNotification.executeBatch([event, { ...event, id: newId('msg') }])).toEqual([0, 0]);
    expect(await recordNotification.execute(event)).toBe(0);
    expect(await prisma.notification.count({ where: { account_id: accountId } })).toBe(0);

    await endpoint(accountId, ['event.created']);
    // Delivered again (a consumer's restart, say), the event finds its subscriber now.
    expect(await recordNotification.execute(event)).toBe(1);
    expect(await prisma.notification.count({ where: { account_id: accountId } })).toBe(1);
  });

  it('records a batch of events in one go: each new one once with a delivery per subscriber, each repeat as a repeat', async () => {
    const [first, second] = [newId('acct'), newId('acct')];
    await endpoint(first, ['event.created']);
    await endpoint(first, ['*']);
    await endpoint(first, ['event.updated']);
    await endpoint(second, ['event.created']);
    const event = (accountId: string) => ({ ...eventCreated(), account_id: accountId });
    const seen = event(first);
    expect(await recordNotification.execute(seen)).toBe(2);

    const batch = [event(first), seen, event(second), event(newId('acct')), { ...event(first), type: 'event.updated' }];
    expect(await recordNotification.executeBatch(batch)).toEqual([2, null, 1, 0, 2]);
    const deliveries = await prisma.webhookDelivery.findMany({ where: { account_id: { in: [first, second] } }, include: { notification: true } });
    expect(deliveries).toHaveLength(2 + 2 + 1 + 2);
    expect(new Set(deliveries.map((delivery) => delivery.id)).size).toBe(deliveries.length);
    for (const delivery of deliveries) expect(delivery).toMatchObject({ account_id: delivery.notification.account_id, type: delivery.notification.type, status: 'pending' });
  });
});
