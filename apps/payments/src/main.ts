import { PAYMENTS_CONNECT_ACCOUNT_TOPIC, PAYMENTS_PAYMENT_INTENT_TOPIC, PAYMENTS_PAYMENT_TOPIC, PAYMENTS_PAYOUT_TOPIC } from '@ticketing/contracts';
import { isDatabaseUnavailable, startIdempotencySweeper, startPeriodicSweep } from '@ticketing/db';
import { createKafka, createProducer, OutboxRelay, startPublishing } from '@ticketing/kafka';
import { runService, startEndpoints, startInBackground } from '@ticketing/service';
import { CatalogOrders, catalogClientsAt } from './catalog/catalog-orders';
import { loadPaymentsConfig } from './config';
import { startTicketRefundConsumer } from './consumers/ticket-refund.consumer';
import { createPaymentsPrisma } from './db';
import { paymentsGrpcServices } from './grpc/services';
import { paymentCore } from './payment-core';
import { startSandboxPageServer } from './sandbox/sandbox-page.server';
import { OrderSeatHolds, seatHoldsClientAt } from './ticketing/seat-holds';
import { AdvanceSandboxPayoutsUseCase } from './usecases/advance-sandbox-payouts/advance-sandbox-payouts.usecase';

void runService({
  name: 'payments',
  loadConfig: loadPaymentsConfig,
  start: async (config, logger) => {
    const prisma = createPaymentsPrisma(config.DATABASE_URL);
    await prisma.$connect();

    const kafka = createKafka({ clientId: 'payments', brokers: config.KAFKA_BROKERS, logger });
    const producer = createProducer(kafka);
    const relay = new OutboxRelay({ databaseUrl: config.DATABASE_URL, producer, logger, pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS, listen: config.OUTBOX_LISTEN });
    // Payments are taken while Kafka is down: their events wait in the outbox until the relay starts.
    const publishing = startInBackground('the outbox relay', () => startPublishing(kafka, [PAYMENTS_PAYMENT_INTENT_TOPIC.name, PAYMENTS_PAYMENT_TOPIC.name, PAYMENTS_PAYOUT_TOPIC.name, PAYMENTS_CONNECT_ACCOUNT_TOPIC.name], relay), (started) => started.stop(), logger);

    const catalogClients = catalogClientsAt(config.CATALOG_GRPC_URL);
    const catalog = new CatalogOrders(catalogClients, { tokenSecret: config.INTERNAL_TOKEN_SECRET, deadlineMs: config.GRPC_DEADLINE_MS });
    const seatHoldsClient = seatHoldsClientAt(config.TICKETING_GRPC_URL);
    const seatHolds = new OrderSeatHolds(seatHoldsClient, { tokenSecret: config.INTERNAL_TOKEN_SECRET, deadlineMs: config.GRPC_DEADLINE_MS });
    const core = paymentCore(
      prisma,
      { catalog, seatHolds },
      {
        fees: { percentBps: config.PAYMENT_FEE_PERCENT_BPS, fixed: config.PAYMENT_FEE_FIXED },
        settlementDelayMs: config.SETTLEMENT_DELAY_MS,
        sandboxDeclineDelayMs: config.SANDBOX_DECLINE_DELAY_MS,
        sandboxLatencyMs: config.SANDBOX_LATENCY_MS,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        orderLifetimeSeconds: config.ORDER_LIFETIME_SECONDS,
      },
      logger,
    );
    const redriver = startPeriodicSweep({
      what: 'charges still processing and refunds still pending',
      intervalMs: config.CHARGE_REDRIVE_INTERVAL_MS,
      sweep: async () => (await core.redriveCharges.execute(config.CHARGE_REDRIVE_AFTER_MS)) + (await core.refunds.redrive(config.CHARGE_REDRIVE_AFTER_MS)),
      logger,
    });
    const expirySweeper = startPeriodicSweep({ what: 'order intents unpaid past their expiry', intervalMs: config.ORDER_EXPIRY_SWEEP_INTERVAL_MS, sweep: () => core.expireOrders.execute(), logger });
    const sandboxPayouts = new AdvanceSandboxPayoutsUseCase(prisma, config.SANDBOX_PAYOUT_STEP_MS);
    const payoutSweeper = startPeriodicSweep({ what: 'sandbox verifications and payouts', intervalMs: Math.max(100, Math.floor(config.SANDBOX_PAYOUT_STEP_MS / 2)), sweep: () => sandboxPayouts.execute(), logger });
    const idempotencySweeper = startIdempotencySweeper(prisma, logger);

    const pages = await startSandboxPageServer(config.PAGES_PORT, { prisma, completeAuthentication: core.completeAuthentication, logger });
    const endpoints = await startEndpoints({
      grpcPort: config.GRPC_PORT,
      opsPort: config.OPS_PORT,
      logger,
      services: paymentsGrpcServices(prisma, core, { tokenSecret: config.INTERNAL_TOKEN_SECRET, logger, unavailableWhen: isDatabaseUnavailable }),
      isReady: async () => (await prisma.$queryRaw`SELECT 1`, true),
    });

    // Ticket refunds wait in ticketing's topic while the consumer joins its group; gRPC serves meanwhile.
    const ticketRefunds = startInBackground(
      'the ticket refund consumer',
      () => startTicketRefundConsumer(kafka, config.KAFKA_GROUP_ID, core.refunds, logger),
      (consumer) => consumer.disconnect(),
      logger,
      { stoppedByItself: (consumer) => consumer.stoppedByItself },
    );

    return [
      ...endpoints,
      { name: 'kafka consumer', run: () => ticketRefunds.stop() },
      { name: 'sandbox page server', run: () => new Promise<void>((resolve) => pages.close(() => resolve())) },
      { name: 'charge re-driver', run: () => redriver.stop() },
      { name: 'order expiry sweeper', run: () => expirySweeper.stop() },
      { name: 'sandbox payout sweeper', run: () => payoutSweeper.stop() },
      { name: 'outbox relay', run: () => publishing.stop() },
      { name: 'idempotency record sweeper', run: () => idempotencySweeper.stop() },
      { name: 'catalog clients', run: async () => Object.values(catalogClients).forEach((client) => client.close()) },
      { name: 'ticketing client', run: async () => seatHoldsClient.close() },
      { name: 'kafka producer', run: () => producer.disconnect() },
      { name: 'database', run: () => prisma.$disconnect() },
    ];
  },
});
