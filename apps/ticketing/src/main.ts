import { TICKETING_QUEUE_TOPIC, TICKETING_SEAT_TOPIC, TICKETING_TICKET_TOPIC } from '@ticketing/contracts';
import { connectRedis } from '@ticketing/redis';
import { isDatabaseUnavailable, startIdempotencySweeper, startPeriodicSweep } from '@ticketing/db';
import { createKafka, createProducer, OutboxRelay, startPublishing } from '@ticketing/kafka';
import { runService, startEndpoints, startInBackground } from '@ticketing/service';
import { TicketCodeSigner } from '@ticketing/ticket-codes';
import { CatalogInventory, catalogClientsAt } from './catalog/catalog-inventory';
import { PaymentIntents, paymentIntentsClientAt } from './payments/payment-intents';
import { SoldOutMemo } from './catalog/sold-out-memo';
import { loadTicketingConfig } from './config';
import { createTicketingPrisma } from './db';
import { driveUpgrade, ticketingGrpcServices } from './grpc/services';
import { DriveIssuanceUseCase } from './usecases/drive-issuance/drive-issuance.usecase';
import { RedriveStalledIssuancesUseCase } from './usecases/redrive-stalled-issuances/redrive-stalled-issuances.usecase';
import { CancelLateTicketsUseCase } from './usecases/cancel-event-tickets/cancel-event-tickets';
import { ReturnUnitsUseCase } from './usecases/return-units/return-units.usecase';
import { ExpireSeatHoldsUseCase } from './usecases/seat-holds/expire-seat-holds.usecase';
import { EVENT_SETTINGS_INBOX, startCatalogEventConsumer } from './consumers/catalog-event.consumer';
import { startPaymentIntentConsumer } from './consumers/payment-intent.consumer';
import { IssuePaidOrderUseCase } from './usecases/issue-paid-order/issue-paid-order.usecase';
import { RecordEventSettingsUseCase } from './usecases/record-event-settings/record-event-settings.usecase';
import { AdmissionTokens } from './waiting-room/admission-tokens';
import { QueueStore } from './waiting-room/queue-store';
import { DeliveryLinks } from './delivery/delivery-links';
import { startTicketPageServer } from './delivery/ticket-page.server';
import { ADMISSION_TOKEN_TTL_SECONDS } from './domain/waiting-room';

void runService({
  name: 'ticketing',
  loadConfig: loadTicketingConfig,
  start: async (config, logger) => {
    const codes = new TicketCodeSigner(config.TICKET_CODE_SIGNING_KEY, config.TICKET_CODE_RETIRED_KEYS);
    const prisma = createTicketingPrisma(config.DATABASE_URL);
    await prisma.$connect();

    const kafka = createKafka({ clientId: 'ticketing', brokers: config.KAFKA_BROKERS, logger });
    const producer = createProducer(kafka);
    const relay = new OutboxRelay({ databaseUrl: config.DATABASE_URL, producer, logger, pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS, listen: config.OUTBOX_LISTEN });
    // Ticketing sells while Kafka is down: what it commits waits in its outbox until the relay starts.
    const publishing = startInBackground('the outbox relay', () => startPublishing(kafka, [TICKETING_TICKET_TOPIC.name, TICKETING_SEAT_TOPIC.name, TICKETING_QUEUE_TOPIC.name], relay), (started) => started.stop(), logger);

    const catalogClients = catalogClientsAt(config.CATALOG_GRPC_URL);
    const catalog = new CatalogInventory(catalogClients, { tokenSecret: config.INTERNAL_TOKEN_SECRET, deadlineMs: config.GRPC_DEADLINE_MS }, new SoldOutMemo(config.SOLD_OUT_MEMO_MS));
    const idempotencySweeper = startIdempotencySweeper(prisma, logger);
    const paymentIntentsClient = paymentIntentsClientAt(config.PAYMENTS_GRPC_URL);
    const payments = new PaymentIntents(paymentIntentsClient, { tokenSecret: config.INTERNAL_TOKEN_SECRET, deadlineMs: config.GRPC_DEADLINE_MS });
    const driveIssuance = new DriveIssuanceUseCase(prisma, catalog, codes, payments);
    const issuances = new RedriveStalledIssuancesUseCase(prisma, driveIssuance, logger);
    const units = new ReturnUnitsUseCase(prisma, catalog, logger);
    const upgrades = driveUpgrade(prisma, { catalog, codes, payments }, logger);
    const lateCancellations = new CancelLateTicketsUseCase(prisma);
    const redriver = startPeriodicSweep({
      what: 'stalled issuances, upgrades and unit returns, and tickets of canceled events',
      intervalMs: config.REDRIVE_INTERVAL_MS,
      sweep: async () =>
        (await issuances.execute(config.REDRIVE_AFTER_MS)) +
        (await upgrades.redrive(config.REDRIVE_AFTER_MS)) +
        (await units.redrive(config.REDRIVE_AFTER_MS)) +
        (await lateCancellations.execute()),
      logger,
    });

    const expireSeatHolds = new ExpireSeatHoldsUseCase(prisma);
    const seatHoldSweeper = startPeriodicSweep({ what: 'expired seat holds', intervalMs: config.SEAT_HOLD_SWEEP_INTERVAL_MS, sweep: () => expireSeatHolds.execute(), logger });

    // Only the waiting room needs Redis: sales of events without one go on while it is down.
    const redis = await connectRedis(config.REDIS_URL, logger, { inBackground: true });
    const dependencies = {
      catalog,
      codes,
      queues: new QueueStore(redis, ADMISSION_TOKEN_TTL_SECONDS * 1000),
      admissionTokens: new AdmissionTokens(config.INTERNAL_TOKEN_SECRET),
      deliveryLinks: new DeliveryLinks(config.INTERNAL_TOKEN_SECRET, config.PUBLIC_BASE_URL),
      issuanceConcurrency: config.ISSUANCE_CONCURRENCY,
      payments,
    };
    const pages = await startTicketPageServer(config.PAGES_PORT, { prisma, catalog, links: dependencies.deliveryLinks, logger });
    const endpoints = await startEndpoints({
      grpcPort: config.GRPC_PORT,
      opsPort: config.OPS_PORT,
      logger,
      services: ticketingGrpcServices(prisma, dependencies, { tokenSecret: config.INTERNAL_TOKEN_SECRET, logger, unavailableWhen: isDatabaseUnavailable }),
      isReady: async () => (await prisma.$queryRaw`SELECT 1`, true),
    });
    // Catalog's event messages wait in the topic while the consumer joins its group; gRPC serves meanwhile.
    const eventSettings = startInBackground(
      'the catalog event consumer',
      () => startCatalogEventConsumer(kafka, config.KAFKA_GROUP_ID, new RecordEventSettingsUseCase(prisma, EVENT_SETTINGS_INBOX), logger),
      (consumer) => consumer.disconnect(),
      logger,
      { stoppedByItself: (consumer) => consumer.stoppedByItself },
    );
    // Paid orders wait in payments' topic while the consumer joins its group.
    const paidOrders = startInBackground(
      'the payment intent consumer',
      () => startPaymentIntentConsumer(kafka, config.KAFKA_GROUP_ID, new IssuePaidOrderUseCase(prisma, driveIssuance), logger),
      (consumer) => consumer.disconnect(),
      logger,
      { stoppedByItself: (consumer) => consumer.stoppedByItself },
    );

    return [
      ...endpoints,
      { name: 'ticket page server', run: () => new Promise<void>((resolve) => pages.close(() => resolve())) },
      { name: 'kafka consumers', run: () => Promise.all([eventSettings.stop(), paidOrders.stop()]) },
      { name: 're-driver', run: () => redriver.stop() },
      { name: 'seat hold sweeper', run: () => seatHoldSweeper.stop() },
      { name: 'outbox relay', run: () => publishing.stop() },
      { name: 'idempotency record sweeper', run: () => idempotencySweeper.stop() },
      { name: 'catalog clients', run: async () => Object.values(catalogClients).forEach((client) => client.close()) },
      { name: 'payments client', run: async () => paymentIntentsClient.close() },
      { name: 'kafka producer', run: () => producer.disconnect() },
      { name: 'redis', run: () => redis.close() },
      { name: 'database', run: () => prisma.$disconnect() },
    ];
  },
});
