import { catalogV1, identityV1, paymentsV1, ticketingV1, webhooksV1 } from '@ticketing/contracts';
import { createGrpcClient } from '@ticketing/grpc';
import { processMetrics, startOpsServer } from '@ticketing/observability';
import { connectCachingRedis, connectRedis } from '@ticketing/redis';
import { closeOpsServer, readyUnlessShuttingDown, runService } from '@ticketing/service';
import { createGatewayApp } from './app';
import { loadGatewayConfig } from './config';
import { closeGracefully, listen } from './http/http-server';
import { rateLimitSettings } from './rate-limit/budgets';

/** API keys whose cache entries this process keeps in memory (least recently used out first). */
const KEY_CACHE_MAX_ENTRIES = 100_000;

void runService({
  name: 'gateway',
  loadConfig: loadGatewayConfig,
  start: async (config, logger) => {
    // Serves without Redis while it is down (decision 0043), from the start too.
    const redis = await connectRedis(config.REDIS_URL, logger, { inBackground: true });
    const keyCache = await connectCachingRedis(config.REDIS_URL, logger, KEY_CACHE_MAX_ENTRIES, { inBackground: true });
    const clients = {
      identity: createGrpcClient(identityV1.IdentityServiceClient, config.IDENTITY_GRPC_URL),
      events: createGrpcClient(catalogV1.EventServiceClient, config.CATALOG_GRPC_URL),
      organizations: createGrpcClient(catalogV1.OrganizationServiceClient, config.CATALOG_GRPC_URL),
      tiers: createGrpcClient(catalogV1.TierServiceClient, config.CATALOG_GRPC_URL),
      seatMaps: createGrpcClient(catalogV1.SeatMapServiceClient, config.CATALOG_GRPC_URL),
      discounts: createGrpcClient(catalogV1.DiscountServiceClient, config.CATALOG_GRPC_URL),
      customers: createGrpcClient(ticketingV1.CustomerServiceClient, config.TICKETING_GRPC_URL),
      tickets: createGrpcClient(ticketingV1.TicketServiceClient, config.TICKETING_GRPC_URL),
      seatHolds: createGrpcClient(ticketingV1.SeatHoldServiceClient, config.TICKETING_GRPC_URL),
      waitingRoom: createGrpcClient(ticketingV1.WaitingRoomServiceClient, config.TICKETING_GRPC_URL),
      paymentIntents: createGrpcClient(paymentsV1.PaymentIntentServiceClient, config.PAYMENTS_GRPC_URL),
      payments: createGrpcClient(paymentsV1.PaymentServiceClient, config.PAYMENTS_GRPC_URL),
      balance: createGrpcClient(paymentsV1.BalanceServiceClient, config.PAYMENTS_GRPC_URL),
      payouts: createGrpcClient(paymentsV1.PayoutServiceClient, config.PAYMENTS_GRPC_URL),
      connectAccounts: createGrpcClient(paymentsV1.ConnectAccountServiceClient, config.PAYMENTS_GRPC_URL),
      webhookEndpoints: createGrpcClient(webhooksV1.WebhookEndpointServiceClient, config.WEBHOOKS_GRPC_URL),
      webhookDeliveries: createGrpcClient(webhooksV1.WebhookDeliveryServiceClient, config.WEBHOOKS_GRPC_URL),
    };
    const app = createGatewayApp({ redis, keyCacheRedis: keyCache.client, clients, config, rateLimits: { settings: rateLimitSettings(config), redis }, logger, metricsRegistry: processMetrics });
    const server = await listen(app, config.PORT);
    // Probes and metrics on their own port, started once the API listens: ready means serving,
    // until SIGTERM begins the drain. Not tied to Redis: without it the gateway still serves
    // (decision 0043), and a readiness that followed Redis would take every replica out of the
    // load balancer at once.
    const ops = await startOpsServer({ port: config.OPS_PORT, isReady: readyUnlessShuttingDown(async () => true) });
    logger.info({ port: config.PORT, ops_port: config.OPS_PORT }, 'listening');
    return [
      { name: 'http server', run: () => closeGracefully(server) },
      closeOpsServer(ops),
      { name: 'grpc clients', run: async () => Object.values(clients).forEach((client) => client.close()) },
      { name: 'redis', run: () => Promise.all([redis.close(), keyCache.client.close()]) },
    ];
  },
});
