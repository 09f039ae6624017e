export * from './envelope';
export * from './event-parser';
export * from './catalog.events';
export * from './catalog-discount.events';
export * from './ticketing.events';
export * from './payments.events';
