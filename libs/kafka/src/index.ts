export * from './client';
export * from './outbox';
export * from './outbox-relay';
export * from './inbox';
export * from './consumer';
export * from './topics';
