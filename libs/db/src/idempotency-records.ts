import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';

/**
 * The record of a write made under a client's Idempotency-Key: committed with the write, so a
 * retry whose first attempt committed (even one whose reply was lost) gets that result back
 * instead of writing again. Two ways of making such a write use it: idempotent-writes.ts claims
 * the key in the write's own transaction, early-key-claims.ts before the write acts elsewhere.
 * The `idempotency_keys` table belongs to this library: every service with writes creates it in
 * a migration with exactly these columns:
 *   account_id TEXT, mode TEXT, operation TEXT, key_hash TEXT (primary key together),
 *   fingerprint TEXT, result BYTEA (NULL while the write runs: inside the claiming
 *   transaction, or under an early claim), created_at TIMESTAMPTZ DEFAULT now().
 */

/** The call a write runs under (libs/grpc's IdempotentCall). */
export interface IdempotentWrite {
  readonly tenant: Tenant;
  /** The RPC: one key may carry one write per RPC. */
  readonly operation: string;
  readonly key: string;
  /** The client's request, so the same key with another request is refused. */
  readonly fingerprint: string;
  /** When the caller stops waiting, if it said: a key claimed early is not claimed after it (EarlyKeyClaims). */
  readonly deadline?: Date;
  markReplayed(): void;
}

/** Any Prisma client or interactive-transaction client. */
export interface RawSqlClient {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number>;
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
}

export interface TransactionOptions {
  maxWait?: number;
  timeout?: number;
}

/** A Prisma client: what a use case opens its write transactions on. */
export interface TransactionRunner extends RawSqlClient {
  $transaction<R>(work: (tx: RawSqlClient) => Promise<R>, options?: TransactionOptions): Promise<R>;
}

/** Where a key's record lives: its row's primary key. */
export interface RecordScope {
  accountId: string;
  mode: string;
  operation: string;
  keyHash: string;
}

export interface StoredRecord {
  fingerprint: string;
  result: Uint8Array;
}

/** The row of the call's key; the key itself is stored only as a hash. */
export function scopeOf(write: IdempotentWrite): RecordScope {
  return { accountId: write.tenant.accountId, mode: write.tenant.mode, operation: write.operation, keyHash: derive(write.key, 'lookup').toString('hex') };
}

/** What identifies the call's key where a write is kept outside the database (Redis): its hash, never the key. */
export function keyHashOf(write: IdempotentWrite): string {
  return scopeOf(write).keyHash;
}

export async function findRecord(db: RawSqlClient, scope: RecordScope): Promise<StoredRecord | undefined> {
  const rows = await db.$queryRaw<StoredRecord[]>`SELECT fingerprint, result FROM idempotency_keys
    WHERE account_id = ${scope.accountId} AND mode = ${scope.mode} AND operation = ${scope.operation} AND key_hash = ${scope.keyHash}`;
  return rows[0];
}

/** The result an earlier call recorded under this key, marking the call replayed; refused when the key came with another request. */
export function replay<R>(write: IdempotentWrite, scope: RecordScope, record: StoredRecord): R {
  if (record.fingerprint !== write.fingerprint) throw keyReused();
  write.markReplayed();
  return unseal(write.key, scope, record.result) as R;
}

export function keyInUse(): ApiError {
  return new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry after it completes.');
}

export function keyReused(): ApiError {
  return new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request; use a new key for a new request.');
}

/**
 * Results can hold secrets shown once (a minted API key), so the table holds them encrypted
 * with a key derived from the client's Idempotency-Key, which is stored only as a hash: the
 * table alone does not reveal them. The scope is authenticated data, binding a result to its row.
 */
const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function derive(idempotencyKey: string, purpose: 'lookup' | 'seal'): Buffer {
  return Buffer.from(hkdfSync('sha256', idempotencyKey, '', `idempotency record ${purpose}`, 32));
}

function associatedData(scope: RecordScope): Buffer {
  return Buffer.from(`${scope.accountId}\n${scope.mode}\n${scope.operation}`);
}

export function seal(idempotencyKey: string, scope: RecordScope, result: unknown): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, derive(idempotencyKey, 'seal'), iv).setAAD(associatedData(scope));
  const sealed = Buffer.concat([cipher.update(serialize(result)), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

export function unseal(idempotencyKey: string, scope: RecordScope, stored: Uint8Array): unknown {
  const bytes = Buffer.from(stored);
  const decipher = createDecipheriv(CIPHER, derive(idempotencyKey, 'seal'), bytes.subarray(0, IV_BYTES)).setAAD(associatedData(scope));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return deserialize(Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]));
}
