export * from './envelope';
export * from './catalog.events';
export * from './catalog-discount.events';
export * from './ticketing.events';
