import { isDatabaseUnavailable, startIdempotencySweeper } from '@ticketing/db';
import { createKafka } from '@ticketing/kafka';
import { runService, startEndpoints, startInBackground } from '@ticketing/service';
import { loadWebhooksConfig } from './config';
import { CATALOG_EVENT_INBOX, startCatalogEventConsumer } from './consumers/catalog-event.consumer';
import { createWebhooksPrisma } from './db';
import { webhooksGrpcServices } from './grpc/services';
import { EndpointSecrets } from './secrets/endpoint-secrets';
import { RecordNotificationUseCase } from './usecases/record-notification/record-notification.usecase';

void runService({
  name: 'webhooks',
  loadConfig: loadWebhooksConfig,
  start: async (config, logger) => {
    const prisma = createWebhooksPrisma(config.DATABASE_URL);
    await prisma.$connect();

    const idempotencySweeper = startIdempotencySweeper(prisma, logger);
    const kafka = createKafka({ clientId: 'webhooks', brokers: config.KAFKA_BROKERS, logger });

    const endpoints = await startEndpoints({
      grpcPort: config.GRPC_PORT,
      opsPort: config.OPS_PORT,
      logger,
      services: webhooksGrpcServices(
        prisma,
        new EndpointSecrets(config.WEBHOOK_SECRETS_KEY),
        { allowLocalHttp: config.WEBHOOK_ALLOW_LOCAL_HTTP },
        { tokenSecret: config.INTERNAL_TOKEN_SECRET, logger, unavailableWhen: isDatabaseUnavailable },
      ),
      isReady: async () => (await prisma.$queryRaw`SELECT 1`, true),
    });
    // Events wait in the topic while the consumer joins its group; the probes answer meanwhile.
    const recordNotification = new RecordNotificationUseCase(prisma, CATALOG_EVENT_INBOX);
    const consumer = startInBackground(
      'the catalog-event consumer',
      () => startCatalogEventConsumer(kafka, config.KAFKA_GROUP_ID, recordNotification, logger),
      (consumer) => consumer.disconnect(),
      logger,
      { stoppedByItself: (consumer) => consumer.stoppedByItself },
    );

    return [
      ...endpoints,
      { name: 'kafka consumer', run: () => consumer.stop() },
      { name: 'idempotency record sweeper', run: () => idempotencySweeper.stop() },
      { name: 'database', run: () => prisma.$disconnect() },
    ];
  },
});
