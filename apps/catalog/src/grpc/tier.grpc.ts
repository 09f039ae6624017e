import type { catalogV1 } from '@ticketing/contracts';
import type { AsyncServiceImplementation } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import { CreateTierUseCase } from '../usecases/create-tier/create-tier.usecase';
import { ListTiersUseCase } from '../usecases/list-tiers/list-tiers.usecase';
import { UpdateTierUseCase } from '../usecases/update-tier/update-tier.usecase';
import { toTierMessage } from './messages';

/** Transport only: decode, call one use case with the token's tenant, encode. */
export function tierGrpcHandlers(prisma: PrismaClient): AsyncServiceImplementation<catalogV1.TierServiceServer> {
  const createTier = new CreateTierUseCase(prisma);
  const updateTier = new UpdateTierUseCase(prisma);
  const listTiers = new ListTiersUseCase(prisma);
  return {
    createTier: async (request, context) => toTierMessage(await createTier.execute(context.tenant, request)),
    updateTier: async (request, context) => toTierMessage(await updateTier.execute(context.tenant, request)),
    listTiers: async (request, context) => {
      const page = await listTiers.execute(context.tenant, request.event_id, request.page);
      return { data: page.data.map(toTierMessage), has_more: page.has_more };
    },
  };
}
