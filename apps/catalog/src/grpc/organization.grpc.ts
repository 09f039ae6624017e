import type { catalogV1 } from '@ticketing/contracts';
import type { AsyncServiceImplementation } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import { CreateOrganizationUseCase } from '../usecases/create-organization/create-organization.usecase';
import { GetOrganizationUseCase } from '../usecases/get-organization/get-organization.usecase';
import { ListOrganizationsUseCase } from '../usecases/list-organizations/list-organizations.usecase';
import { UpdateOrganizationUseCase } from '../usecases/update-organization/update-organization.usecase';
import { toOrganizationMessage } from './messages';

/** Transport only: decode, call one use case with the token's tenant, encode. */
export function organizationGrpcHandlers(prisma: PrismaClient): AsyncServiceImplementation<catalogV1.OrganizationServiceServer> {
  const createOrganization = new CreateOrganizationUseCase(prisma);
  const getOrganization = new GetOrganizationUseCase(prisma);
  const listOrganizations = new ListOrganizationsUseCase(prisma);
  const updateOrganization = new UpdateOrganizationUseCase(prisma);
  return {
    createOrganization: async (request, context) => toOrganizationMessage(await createOrganization.execute(context.tenant, request)),
    getOrganization: async (request, context) => toOrganizationMessage(await getOrganization.execute(context.tenant, request.id)),
    listOrganizations: async (request, context) => {
      const page = await listOrganizations.execute(context.tenant, request.page);
      return { data: page.data.map(toOrganizationMessage), has_more: page.has_more };
    },
    updateOrganization: async (request, context) => toOrganizationMessage(await updateOrganization.execute(context.tenant, request)),
  };
}
