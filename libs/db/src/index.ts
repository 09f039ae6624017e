export * from './prisma';
export * from './database';
export * from './migration-runner';
export * from './idempotent-writes';
export { keyHashOf, type IdempotentWrite, type RawSqlClient, type TransactionOptions, type TransactionRunner } from './idempotency-records';
export { EarlyKeyClaims, type OutsideWork, type StatementSeal } from './early-key-claims';
export * from './periodic-sweep';
export * from './idempotency-sweeper';
export * from './group-commit';
