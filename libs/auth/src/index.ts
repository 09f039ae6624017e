export * from './scopes';
export * from './api-key';
export * from './internal-token';
export * from './key-cache';
export * from './tenant';
