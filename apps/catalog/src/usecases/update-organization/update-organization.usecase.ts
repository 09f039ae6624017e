import type { Tenant } from '@ticketing/auth';
import { CATALOG_ORGANIZATION_TOPIC } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { enqueueEvent } from '@ticketing/kafka';
import type { PrismaClient } from '../../db';
import { validContactEmail, validOrganizationDescription, validOrganizationName, validWebsite, type CatalogOrganization } from '../../domain/organization';
import { OrganizationRepository } from '../../repositories/organization.repository';

export interface UpdateOrganizationCommand {
  id: string;
  name?: string;
  description?: string;
  website?: string;
  contact_email?: string;
}

/** Changes the fields given (an empty text clears it) and records `organization.updated`. */
export class UpdateOrganizationUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, command: UpdateOrganizationCommand): Promise<CatalogOrganization> {
    const changes = {
      ...(command.name === undefined ? {} : { name: validOrganizationName(command.name) }),
      ...(command.description === undefined ? {} : { description: validOrganizationDescription(command.description) }),
      ...(command.website === undefined ? {} : { website: validWebsite(command.website) }),
      ...(command.contact_email === undefined ? {} : { contact_email: validContactEmail(command.contact_email) }),
    };
    if (Object.keys(changes).length === 0) throw new ApiError('parameter_missing', 'Give at least one of name, description, website, contact_email to change.');
    return this.prisma.$transaction(async (tx) => {
      const organization = await new OrganizationRepository(tx).update(tenant, command.id, changes);
      if (!organization) throw ApiError.resourceMissing('organization', command.id);
      await enqueueEvent(tx, {
        topic: CATALOG_ORGANIZATION_TOPIC,
        type: 'organization.updated',
        aggregateId: organization.id,
        tenant,
        data: { organization_id: organization.id, name: organization.name },
      });
      return organization;
    });
  }
}
