import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { IHeaders, Kafka, Producer } from 'kafkajs';
import type { Tenant } from '@ticketing/auth';
import { CATALOG_EVENT_TOPIC, catalogV1, type DomainEventEnvelope, TICKETING_SEAT_TOPIC } from '@ticketing/contracts';
import { callUnary, createGrpcClient, startGrpcServer } from '@ticketing/grpc';
import { createKafka, createProducer, ensureTopics, EVENT_HEADERS, type EventConsumer, headerText, OutboxRelay } from '@ticketing/kafka';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { createTestDatabase, type TestDatabase, waitFor } from '@ticketing/testing';
import { SEAT_CHANGE_INBOX, startSeatChangeConsumer } from '../src/consumers/seat-change.consumer';
import { createCatalogPrisma, type PrismaClient } from '../src/db';
import { catalogGrpcServices } from '../src/grpc/services';
import { CreateEventUseCase } from '../src/usecases/create-event/create-event.usecase';
import { CreateTierUseCase } from '../src/usecases/create-tier/create-tier.usecase';
import { RecordSeatChangeUseCase } from '../src/usecases/record-seat-change/record-seat-change.usecase';
import { SetSeatMapUseCase } from '../src/usecases/set-seat-map/set-seat-map.usecase';
import { UpdateEventUseCase } from '../src/usecases/update-event/update-event.usecase';
import { createEventRequest, createTierRequest } from './support/requests';
import { useReadGenerations } from './support/read-generations';

const logger = createLogger('catalog-kafka-test', 'silent');

/** Catalog's two ends of Kafka: its outbox relayed to catalog.event.v1, and ticketing's seat messages consumed. */
describe('catalog and Kafka (real PostgreSQL, real Kafka)', () => {
  const reads = useReadGenerations();
  let database: TestDatabase;
  let prisma: PrismaClient;
  let kafka: Kafka;
  let producer: Producer;
  let relay: OutboxRelay;
  let seatChanges: EventConsumer;
  const tenant: Tenant = { accountId: newId('acct'), mode: 'test' };

  beforeAll(async () => {
    database = await createTestDatabase('catalog', path.join(__dirname, '../prisma/migrations'));
    prisma = createCatalogPrisma(database.url);
    kafka = createKafka({ clientId: 'catalog-kafka-test', brokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','), logger });
    await ensureTopics(kafka, [CATALOG_EVENT_TOPIC.name, TICKETING_SEAT_TOPIC.name]);
    producer = createProducer(kafka);
    await producer.connect();
    relay = new OutboxRelay({ databaseUrl: database.url, producer, logger, pollIntervalMs: 50 });
    relay.start();
    seatChanges = await startSeatChangeConsumer(kafka, `catalog-test-${randomUUID()}`, new RecordSeatChangeUseCase(prisma, SEAT_CHANGE_INBOX, reads.generations), logger);
  });

  afterAll(async () => {
    await seatChanges.disconnect();
    await relay.stop();
    await producer.disconnect();
    await prisma.$disconnect();
    await database.drop();
  });

  it('publishes an event’s changes on catalog.event.v1, keyed by the event id, in the order they were made', async () => {
    const event = await new CreateEventUseCase(prisma).execute(tenant, createEventRequest());
    await new CreateTierUseCase(prisma).execute(tenant, createTierRequest(event.id));
    await new UpdateEventUseCase(prisma).execute(tenant, { id: event.id, status: 'published' });
    await new UpdateEventUseCase(prisma).execute(tenant, { id: event.id, status: 'canceled' });

    const received: DomainEventEnvelope[] = [];
    const consumer = kafka.consumer({ groupId: `catalog-test-reader-${randomUUID()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: CATALOG_EVENT_TOPIC.name, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        if (message.key?.toString() === event.id) received.push(JSON.parse(message.value!.toString()));
      },
    });
    try {
      await waitFor('four messages about the event', async () => (received.length >= 4 ? received : undefined));
    } finally {
      await consumer.disconnect();
    }
    expect(received.map((message) => message.type)).toEqual(['event.created', 'tier.created', 'event.published', 'event.canceled']);
    expect(received[3]).toMatchObject({ account_id: tenant.accountId, mode: 'test', data: { event_id: event.id, status: 'canceled' } });
  });

  it('applies ticketing’s seat messages from Kafka to the seat map, through the inbox', async () => {
    const event = await new CreateEventUseCase(prisma).execute(tenant, createEventRequest());
    const tier = await new CreateTierUseCase(prisma).execute(tenant, createTierRequest(event.id, { seated: true }));
    await new SetSeatMapUseCase(prisma).execute(tenant, event.id, [{ label: 'Balcony', rows: [{ label: 'B', seats: [{ label: '7', tier_id: tier.id }] }] }]);
    const held: DomainEventEnvelope = {
      id: newId('msg'),
      type: 'seat.held',
      account_id: tenant.accountId,
      mode: tenant.mode,
      occurred_at: new Date().toISOString(),
      data: { event_id: event.id, seat_ids: ['Balcony:B:7'], hold_id: 'hold_1' },
    };
    await producer.send({ topic: TICKETING_SEAT_TOPIC.name, messages: [{ key: event.id, value: JSON.stringify(held) }] });

    await waitFor('the seat to be held', async () => ((await prisma.seatStatus.findFirst({ where: { event_id: event.id, seat_id: 'Balcony:B:7', status: 'held' } })) ? true : undefined));
    expect(await prisma.inboxMessage.count({ where: { consumer: SEAT_CHANGE_INBOX, message_id: held.id } })).toBe(1);
  });

  it('stamps the request id of the gRPC call on the event it publishes, in the envelope and the Kafka headers', async () => {
    const tokenSecret = 'catalog-kafka-test-secret-0123456789';
    const server = await startGrpcServer(catalogGrpcServices(prisma, { tokenSecret, logger }, reads.generations), 0);
    const events = createGrpcClient(catalogV1.EventServiceClient, `127.0.0.1:${server.port}`);
    const requestId = newId('req');
    const consumer = kafka.consumer({ groupId: `catalog-test-reader-${randomUUID()}` });
    try {
      const claims = { request_id: requestId, tenant: { account_id: tenant.accountId, mode: tenant.mode } };
      const event = await callUnary(events.createEvent.bind(events), createEventRequest(), claims, { tokenSecret, deadlineMs: 5_000 });

      const received: Array<{ envelope: DomainEventEnvelope; headers: IHeaders }> = [];
      await consumer.connect();
      await consumer.subscribe({ topic: CATALOG_EVENT_TOPIC.name, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          if (message.key?.toString() === event.id) received.push({ envelope: JSON.parse(message.value!.toString()), headers: message.headers ?? {} });
        },
      });
      const [published] = await waitFor('the event.created message', async () => (received.length > 0 ? received : undefined));
      expect(published!.envelope).toMatchObject({ type: 'event.created', request_id: requestId });
      expect(headerText(published!.headers, EVENT_HEADERS.requestId)).toBe(requestId);
      expect(headerText(published!.headers, EVENT_HEADERS.accountId)).toBe(tenant.accountId);
    } finally {
      await consumer.disconnect();
      events.close();
      await server.shutdown();
    }
  });
});
