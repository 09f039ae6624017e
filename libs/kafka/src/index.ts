export * from './client';
export * from './outbox';
export * from './outbox-relay';
export * from './inbox';
export * from './consumer';
export * from './topics';
export * from './dead-letter';
export * from './dead-letter-replay';
export * from './message-headers';

export type { Backoff } from './backoff';
