export * from './logger';
export * from './ops-server';
