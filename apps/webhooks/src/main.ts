import { WEBHOOK_TOPICS } from '@ticketing/contracts';
import { isDatabaseUnavailable, startIdempotencySweeper } from '@ticketing/db';
import { createKafka } from '@ticketing/kafka';
import { processMetrics } from '@ticketing/observability';
import { runService, startEndpoints, startInBackground } from '@ticketing/service';
import { loadWebhooksConfig } from './config';
import { startDomainEventConsumer } from './consumers/domain-event.consumer';
import { createWebhooksPrisma } from './db';
import { DeliveryDispatcher } from './delivery/delivery-dispatcher';
import { DeliveryMetrics } from './delivery/delivery-metrics';
import { SignedDelivery } from './delivery/signed-delivery';
import { WebhookSender } from './delivery/webhook-sender';
import { RetrySchedule } from './domain/retry-schedule';
import { webhooksGrpcServices } from './grpc/services';
import { DeliveryRepository } from './repositories/delivery.repository';
import { EndpointSecrets } from './secrets/endpoint-secrets';
import { AttemptDeliveryUseCase } from './usecases/attempt-delivery/attempt-delivery.usecase';
import { RecordNotificationUseCase } from './usecases/record-notification/record-notification.usecase';

void runService({
  name: 'webhooks',
  loadConfig: loadWebhooksConfig,
  start: async (config, logger) => {
    const prisma = createWebhooksPrisma(config.DATABASE_URL);
    await prisma.$connect();

    const idempotencySweeper = startIdempotencySweeper(prisma, logger);
    const kafka = createKafka({ clientId: 'webhooks', brokers: config.KAFKA_BROKERS, logger });
    const secrets = new EndpointSecrets(config.WEBHOOK_SECRETS_KEY);
    const destinations = { allowLocalHttp: config.WEBHOOK_ALLOW_LOCAL_HTTP };

    const sender = new WebhookSender(destinations, config.WEBHOOK_TIMEOUT_MS);
    const signedDelivery = new SignedDelivery(sender, secrets);
    const endpoints = await startEndpoints({
      grpcPort: config.GRPC_PORT,
      opsPort: config.OPS_PORT,
      logger,
      services: webhooksGrpcServices(prisma, secrets, destinations, signedDelivery, { tokenSecret: config.INTERNAL_TOKEN_SECRET, logger, unavailableWhen: isDatabaseUnavailable }),
      isReady: async () => (await prisma.$queryRaw`SELECT 1`, true),
    });

    const attemptDelivery = new AttemptDeliveryUseCase(
      prisma,
      signedDelivery,
      { schedule: new RetrySchedule(config.WEBHOOK_RETRY_DELAYS_MS), disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS },
      logger,
    );
    const metrics = new DeliveryMetrics(processMetrics, () => new DeliveryRepository(prisma).backlog());
    const dispatcher = new DeliveryDispatcher(
      prisma,
      attemptDelivery,
      metrics,
      { concurrency: config.WEBHOOK_CONCURRENCY, perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY, leaseMs: config.WEBHOOK_TIMEOUT_MS + 30_000, pollMs: 500 },
      logger,
    );
    dispatcher.start();

    // Events wait in their topics while the consumers join their groups; the probes answer meanwhile.
    const recordNotification = new RecordNotificationUseCase(prisma);
    const consumers = WEBHOOK_TOPICS.map((topic) =>
      startInBackground(
        `the ${topic.name} consumer`,
        () => startDomainEventConsumer(kafka, config.KAFKA_GROUP_ID, topic, recordNotification, () => dispatcher.wake(), logger),
        (consumer) => consumer.disconnect(),
        logger,
        { stoppedByItself: (consumer) => consumer.stoppedByItself },
      ),
    );

    return [
      ...endpoints,
      { name: 'kafka consumers', run: () => Promise.all(consumers.map((consumer) => consumer.stop())) },
      { name: 'delivery dispatcher', run: () => dispatcher.stop() },
      { name: 'webhook sender', run: async () => sender.close() },
      { name: 'idempotency record sweeper', run: () => idempotencySweeper.stop() },
      { name: 'database', run: () => prisma.$disconnect() },
    ];
  },
});
