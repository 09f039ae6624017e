// catalog.v1 spans one .proto file per aggregate; callers see one namespace.
export * from './generated/catalog/v1/events';
export * from './generated/catalog/v1/organizations';
export * from './generated/catalog/v1/seatmaps';
export * from './generated/catalog/v1/tiers';
export * from './generated/catalog/v1/discounts';
export * from './generated/catalog/v1/inventory';
