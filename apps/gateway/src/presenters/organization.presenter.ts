import { z } from 'zod';
import type { catalogV1 } from '@ticketing/contracts';
import { nullIfEmpty } from './fields';
import { resourceFields, timestamp } from './resource.schema';

export const organizationResource = z
  .object({
    ...resourceFields('organization'),
    name: z.string().meta({ example: 'Northside Promotions' }),
    description: z.string().nullable(),
    website: z.string().nullable().meta({ example: 'https://northside.example' }),
    contact_email: z.string().nullable().meta({ example: 'box-office@northside.example' }),
    updated_at: timestamp,
  })
  .meta({
    id: 'Organization',
    example: {
      id: 'org_01JD3W7Q2M9S4T6V8X0Z2B4D6F',
      object: 'organization',
      livemode: false,
      name: 'Northside Promotions',
      description: 'Club nights and open-air concerts.',
      website: 'https://northside.example',
      contact_email: 'box-office@northside.example',
      created_at: '2027-01-05T09:00:00.000Z',
      updated_at: '2027-01-05T09:00:00.000Z',
    },
  });

export function presentOrganization(organization: catalogV1.Organization): z.output<typeof organizationResource> {
  return {
    id: organization.id,
    object: 'organization',
    livemode: organization.livemode,
    name: organization.name,
    description: nullIfEmpty(organization.description),
    website: nullIfEmpty(organization.website),
    contact_email: nullIfEmpty(organization.contact_email),
    created_at: organization.created_at,
    updated_at: organization.updated_at,
  };
}
