import { identityV1 } from '@ticketing/contracts';
import { idempotentWrites, isDatabaseUnavailable, startIdempotencySweeper } from '@ticketing/db';
import { currentIdempotentCall, implementService } from '@ticketing/grpc';
import { connectRedis } from '@ticketing/redis';
import { runService, startEndpoints } from '@ticketing/service';
import { KeyCache } from './cache/key-cache';
import { loadIdentityConfig } from './config';
import { createIdentityPrisma } from './db';
import { identityGrpcHandlers } from './grpc/identity.grpc';

void runService({
  name: 'identity',
  loadConfig: loadIdentityConfig,
  start: async (config, logger) => {
    const prisma = createIdentityPrisma(config.DATABASE_URL);
    await prisma.$connect();
    const idempotencySweeper = startIdempotencySweeper(prisma, logger);
    // Identity verifies keys without Redis; only revocations and account changes need it (KeyCache).
    const redis = await connectRedis(config.REDIS_URL, logger, { inBackground: true });

    const endpoints = await startEndpoints({
      grpcPort: config.GRPC_PORT,
      opsPort: config.OPS_PORT,
      logger,
      services: [
        {
          definition: identityV1.IdentityServiceService,
          implementation: implementService<identityV1.IdentityServiceServer>(identityGrpcHandlers(idempotentWrites(prisma, currentIdempotentCall), new KeyCache(redis)), {
            tokenSecret: config.INTERNAL_TOKEN_SECRET,
            logger,
            unavailableWhen: isDatabaseUnavailable,
          }),
        },
      ],
      // Not tied to Redis: while Redis is down, gateways verify every key here (decision 0043).
      isReady: async () => (await prisma.$queryRaw`SELECT 1`, true),
    });

    return [
      ...endpoints,
      { name: 'redis', run: () => redis.close() },
      { name: 'idempotency record sweeper', run: () => idempotencySweeper.stop() },
      { name: 'database', run: () => prisma.$disconnect() },
    ];
  },
});
