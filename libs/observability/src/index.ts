export * from './logger';
export * from './ops-server';
export * from './request-id-scope';
