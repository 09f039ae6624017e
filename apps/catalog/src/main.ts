import { CATALOG_DISCOUNT_TOPIC, CATALOG_EVENT_TOPIC, CATALOG_ORGANIZATION_TOPIC } from '@ticketing/contracts';
import { isDatabaseUnavailable, startIdempotencySweeper, startPeriodicSweep } from '@ticketing/db';
import { createKafka, createProducer, OutboxRelay, startPublishing } from '@ticketing/kafka';
import { connectRedis } from '@ticketing/redis';
import { runService, startEndpoints, startInBackground } from '@ticketing/service';
import { loadCatalogConfig } from './config';
import { createCatalogPrisma } from './db';
import { SEAT_CHANGE_INBOX, startSeatChangeConsumer } from './consumers/seat-change.consumer';
import { catalogGrpcServices } from './grpc/services';
import { CatalogReadGenerations } from './reads/read-generations';
import { ReleaseExpiredReservationsUseCase } from './usecases/release-expired-reservations/release-expired-reservations.usecase';
import { RecordSeatChangeUseCase } from './usecases/record-seat-change/record-seat-change.usecase';

void runService({
  name: 'catalog',
  loadConfig: loadCatalogConfig,
  start: async (config, logger) => {
    const prisma = createCatalogPrisma(config.DATABASE_URL);
    await prisma.$connect();
    // Catalog serves while Redis is down: the read generations it could not replace wait (decision 0051).
    const redis = await connectRedis(config.REDIS_URL, logger, { inBackground: true });
    const readGenerations = new CatalogReadGenerations(redis, logger);

    const kafka = createKafka({ clientId: 'catalog', brokers: config.KAFKA_BROKERS, logger });
    const producer = createProducer(kafka);
    const relay = new OutboxRelay({ databaseUrl: config.DATABASE_URL, producer, logger, pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS, listen: config.OUTBOX_LISTEN });
    // Catalog serves while Kafka is down: what it commits waits in its outbox until the relay starts.
    const publishing = startInBackground('the outbox relay', () => startPublishing(kafka, [CATALOG_EVENT_TOPIC.name, CATALOG_ORGANIZATION_TOPIC.name, CATALOG_DISCOUNT_TOPIC.name], relay), (started) => started.stop(), logger);
    const idempotencySweeper = startIdempotencySweeper(prisma, logger);
    const releaseExpired = new ReleaseExpiredReservationsUseCase(prisma, readGenerations);
    const reservationSweeper = startPeriodicSweep({
      what: 'expired inventory reservations',
      intervalMs: config.RESERVATION_SWEEP_INTERVAL_MS,
      sweep: () => releaseExpired.execute(),
      logger,
    });

    const endpoints = await startEndpoints({
      grpcPort: config.GRPC_PORT,
      opsPort: config.OPS_PORT,
      logger,
      services: catalogGrpcServices(prisma, { tokenSecret: config.INTERNAL_TOKEN_SECRET, logger, unavailableWhen: isDatabaseUnavailable, replyDelayMs: config.REPLY_DELAY_MS }, readGenerations),
      isReady: async () => (await prisma.$queryRaw`SELECT 1`, true),
    });
    // Seat changes wait in the topic while the consumer joins its group; gRPC serves meanwhile.
    const seatChanges = startInBackground(
      'the seat-change consumer',
      () => startSeatChangeConsumer(kafka, config.KAFKA_GROUP_ID, new RecordSeatChangeUseCase(prisma, SEAT_CHANGE_INBOX, readGenerations), logger),
      (consumer) => consumer.disconnect(),
      logger,
      { stoppedByItself: (consumer) => consumer.stoppedByItself },
    );

    return [
      ...endpoints,
      { name: 'kafka consumer', run: () => seatChanges.stop() },
      { name: 'outbox relay', run: () => publishing.stop() },
      { name: 'idempotency record sweeper', run: () => idempotencySweeper.stop() },
      { name: 'reservation sweeper', run: () => reservationSweeper.stop() },
      { name: 'kafka producer', run: () => producer.disconnect() },
      { name: 'read generations', run: async () => readGenerations.stop() },
      { name: 'redis', run: () => redis.close() },
      { name: 'database', run: () => prisma.$disconnect() },
    ];
  },
});
