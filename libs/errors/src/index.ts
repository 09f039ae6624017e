export * from './error-codes';
export * from './api-error';
