import path from 'node:path';
import type { DomainEventEnvelope } from '@ticketing/contracts';
import { newId } from '@ticketing/ids';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createWebhooksPrisma, type PrismaClient } from '../src/db';
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

  it('records an event once however often it is delivered, concurrently or not', async () => {
    const event = eventCreated();
    const outcomes = await Promise.allSettled([recordNotification.execute(event), recordNotification.execute(event), recordNotification.execute(event)]);
    expect(await recordNotification.execute(event)).toBeNull();
    // The account has no endpoints: recorded with no deliveries.
    const created = outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value === 0);
    expect(created).toHaveLength(1);

    const rows = await prisma.notification.findMany({ where: { source_event_id: event.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ account_id: 'acct_a', mode: 'live', type: 'event.created' });
  });
});
