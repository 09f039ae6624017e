import { z } from 'zod';
import { toListEnvelope } from '@ticketing/pagination';
import { organizationResource, presentOrganization } from '../presenters/organization.presenter';
import { listOf } from '../presenters/resource.schema';
import { absentOrNull, cleared, clearableText, emailAddress, patchBody, text, upTo } from '../validation/fields';
import { listQuery, pageRequest } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Organizations';

const website = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://example.com' }).max(2000).meta({ example: 'https://northside.example' });
const contactEmail = emailAddress.meta({ example: 'box-office@northside.example' });

const createOrganizationBody = z.strictObject({
  name: text(200).meta({ example: 'Northside Promotions' }),
  description: absentOrNull(upTo(5000)),
  website: absentOrNull(website),
  contact_email: absentOrNull(contactEmail),
}).meta({ example: { name: 'Northside Promotions', website: 'https://northside.example', contact_email: 'box-office@northside.example' } });

const updateOrganizationBody = patchBody({
  name: text(200).optional(),
  description: clearableText(5000).optional(),
  website: website.nullable().optional(),
  contact_email: contactEmail.nullable().optional(),
}).meta({ example: { description: 'Club nights and open-air concerts.', website: null } });

export const organizationsRoutes = [
  defineRoute({
    operationId: 'listOrganizations',
    method: 'get',
    path: '/v1/organizations',
    summary: 'List organizations, newest first',
    tag: TAG,
    access: secretKey('events:read'),
    query: listQuery,
    response: listOf(organizationResource),
    handler: async ({ query }, { services }) => toListEnvelope(await services.organizations.listOrganizations({ page: pageRequest(query) }), presentOrganization),
  }),
  defineRoute({
    operationId: 'getOrganization',
    method: 'get',
    path: '/v1/organizations/{id}',
    summary: 'Retrieve an organization',
    tag: TAG,
    access: secretKey('events:read'),
    response: organizationResource,
    handler: async ({ params }, { services }) => presentOrganization(await services.organizations.getOrganization({ id: params.id })),
    catalogRead: ({ params }) => `organization:${params.id}`,
  }),
  defineRoute({
    operationId: 'createOrganization',
    method: 'post',
    path: '/v1/organizations',
    summary: 'Create an organization (an organizer the account sells for)',
    tag: TAG,
    access: secretKey('events:write'),
    body: createOrganizationBody,
    response: organizationResource,
    handler: async ({ body }, { services }) =>
      presentOrganization(
        await services.organizations.createOrganization({
          name: body.name,
          description: body.description ?? '',
          website: body.website ?? '',
          contact_email: body.contact_email ?? '',
        }),
      ),
  }),
  defineRoute({
    operationId: 'updateOrganization',
    method: 'patch',
    path: '/v1/organizations/{id}',
    summary: 'Update an organization; only the fields sent change, null clears',
    tag: TAG,
    access: secretKey('events:write'),
    body: updateOrganizationBody,
    response: organizationResource,
    handler: async ({ params, body }, { services }) =>
      presentOrganization(
        await services.organizations.updateOrganization({
          id: params.id,
          name: body.name,
          description: cleared(body.description),
          website: cleared(body.website),
          contact_email: cleared(body.contact_email),
        }),
      ),
  }),
];
