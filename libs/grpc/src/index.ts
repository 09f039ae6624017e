export * from './call-context';
export * from './status-mapping';
export * from './server';
export * from './client';
export * from './idempotent-call';
export * from './service-calls';
export * from './refusals';
