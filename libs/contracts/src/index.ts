export * as commonV1 from './generated/common/v1/common';
export * as identityV1 from './generated/identity/v1/identity';
export * as catalogV1 from './catalog-v1';
export * as ticketingV1 from './ticketing-v1';
export * from './events';
export * from './catalog-values';
export * from './email-address';
export * from './ticketing-values';
export * from './catalog-reads';
