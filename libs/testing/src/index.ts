export * from './wait-for';
export * from './test-database';
export * from './openapi-schemas';
export * from './silenceable-redis';
export * from './late-forwarder';
