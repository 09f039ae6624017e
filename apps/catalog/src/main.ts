import { CATALOG_EVENT_TOPIC } from '@ticketing/contracts';
import { createKafka, createProducer, ensureTopics, OutboxRelay } from '@ticketing/kafka';
import { runService, startEndpoints } from '@ticketing/service';
import { loadCatalogConfig } from './config';
import { createCatalogPrisma } from './db';
import { catalogGrpcServices } from './grpc/services';

void runService({
  name: 'catalog',
  loadConfig: loadCatalogConfig,
  start: async (config, logger) => {
    const prisma = createCatalogPrisma(config.DATABASE_URL);
    await prisma.$connect();

    const kafka = createKafka({ clientId: 'catalog', brokers: config.KAFKA_BROKERS, logger });
    await ensureTopics(kafka, [CATALOG_EVENT_TOPIC.name]);
    const producer = createProducer(kafka);
    await producer.connect();
    const relay = new OutboxRelay({ databaseUrl: config.DATABASE_URL, producer, logger, pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS });
    relay.start();

    const endpoints = await startEndpoints({
      grpcPort: config.GRPC_PORT,
      opsPort: config.OPS_PORT,
      logger,
      services: catalogGrpcServices(prisma, { tokenSecret: config.INTERNAL_TOKEN_SECRET, logger }),
      isReady: async () => (await prisma.$queryRaw`SELECT 1`, true),
    });

    return [
      ...endpoints,
      { name: 'outbox relay', run: () => relay.stop() },
      { name: 'kafka producer', run: () => producer.disconnect() },
      { name: 'database', run: () => prisma.$disconnect() },
    ];
  },
});
