import { listOf, plannedResource } from '../presenters/resource.schema';
import { listQuery } from '../validation/list-query';
import { defineRoute, secretKey } from './route';

const TAG = 'Marketplace';
const access = secretKey('marketplace:read');
const listing = plannedResource('marketplace_listing');

export const marketplaceRoutes = [
  defineRoute({
    operationId: 'listMarketplaceListings',
    method: 'get',
    path: '/v1/marketplace/listings',
    summary: 'List secondary-market resale listings',
    tag: TAG,
    access,
    query: listQuery,
    response: listOf(listing),
  }),
  defineRoute({
    operationId: 'getMarketplaceListing',
    method: 'get',
    path: '/v1/marketplace/listings/{id}',
    summary: 'Retrieve a resale listing',
    tag: TAG,
    access,
    response: listing,
  }),
];
