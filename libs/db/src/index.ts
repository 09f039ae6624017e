export * from './prisma';
export * from './database';
export * from './migration-runner';
export * from './idempotent-writes';
export * from './periodic-sweep';
export * from './idempotency-sweeper';
export * from './group-commit';
