import type { Tenant } from '@ticketing/auth';
import { CATALOG_ORGANIZATION_TOPIC } from '@ticketing/contracts';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { validContactEmail, validOrganizationDescription, validOrganizationName, validWebsite, type CatalogOrganization } from '../../domain/organization';
import { OrganizationRepository } from '../../repositories/organization.repository';

export interface CreateOrganizationCommand {
  name: string;
  description: string;
  website: string;
  contact_email: string;
}

/** Creates an organization and its `organization.created` message in one transaction. */
export class CreateOrganizationUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, command: CreateOrganizationCommand): Promise<CatalogOrganization> {
    const fields = {
      name: validOrganizationName(command.name),
      description: validOrganizationDescription(command.description),
      website: validWebsite(command.website),
      contact_email: validContactEmail(command.contact_email),
    };
    return this.prisma.$transaction(async (tx) => {
      const organization = await new OrganizationRepository(tx).create(tenant, fields);
      await enqueueEvent(tx, {
        topic: CATALOG_ORGANIZATION_TOPIC,
        type: 'organization.created',
        aggregateId: organization.id,
        tenant,
        data: { organization_id: organization.id, name: organization.name },
      });
      return organization;
    });
  }
}
