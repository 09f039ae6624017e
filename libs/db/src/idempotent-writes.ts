import { earlyClaimedTransaction } from './early-key-claims';
import { findRecord, replay, scopeOf, seal, type IdempotentWrite, type RawSqlClient, type RecordScope, type TransactionOptions, type TransactionRunner } from './idempotency-records';

/**
 * `client` whose interactive transactions, when opened while serving an idempotent call, are
 * recorded writes (idempotency-records.ts): the transaction claims the key first and stores the
 * write's result with it. Every use case on it gets them without knowing. Outside such a call
 * (reads, Kafka consumers, operator commands) it is `client` unchanged. A write whose key was
 * claimed before it acted (early-key-claims.ts) seals its claim instead.
 */
export function idempotentWrites<TClient extends TransactionRunner>(client: TClient, currentWrite: () => IdempotentWrite | undefined): TClient {
  const done = new WeakSet<IdempotentWrite>();
  const transaction = async (work: unknown, options?: TransactionOptions): Promise<unknown> => {
    const write = currentWrite();
    if (!write) return (client.$transaction as (...args: unknown[]) => Promise<unknown>)(work, options);
    if (typeof work !== 'function') throw new Error(`${write.operation}: a write under an Idempotency-Key must use an interactive transaction`);
    // A second write would find the first one's record and return its result instead of running.
    if (done.has(write)) throw new Error(`${write.operation} opened a second write transaction under one Idempotency-Key; one RPC commits one write`);
    const result = await recordedTransaction(client, write, work as (tx: RawSqlClient) => Promise<unknown>, options);
    done.add(write);
    return result;
  };
  return new Proxy(client, {
    get: (target, property) => {
      if (property === '$transaction') return transaction;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function recordedTransaction<R>(client: TransactionRunner, write: IdempotentWrite, work: (tx: RawSqlClient) => Promise<R>, options?: TransactionOptions): Promise<R> {
  const early = earlyClaimedTransaction(client, write, work, options);
  if (early) return early;
  const scope = scopeOf(write);
  const earlier = await findRecord(client, scope);
  if (earlier) return replay<R>(write, scope, earlier);
  return client.$transaction(async (tx) => {
    // Claiming first makes a concurrent duplicate wait here until this transaction ends.
    if (!(await claim(tx, scope, write.fingerprint))) {
      const committed = await findRecord(tx, scope);
      if (!committed) throw new Error(`idempotency record ${scope.operation} vanished while claimed`);
      return replay<R>(write, scope, committed);
    }
    const result = await work(tx);
    await tx.$executeRaw`UPDATE idempotency_keys SET result = ${seal(write.key, scope, result)}
      WHERE account_id = ${scope.accountId} AND mode = ${scope.mode} AND operation = ${scope.operation} AND key_hash = ${scope.keyHash}`;
    return result;
  }, options);
}

async function claim(tx: RawSqlClient, scope: RecordScope, fingerprint: string): Promise<boolean> {
  const inserted = await tx.$executeRaw`INSERT INTO idempotency_keys (account_id, mode, operation, key_hash, fingerprint)
    VALUES (${scope.accountId}, ${scope.mode}, ${scope.operation}, ${scope.keyHash}, ${fingerprint})
    ON CONFLICT (account_id, mode, operation, key_hash) DO NOTHING`;
  return inserted === 1;
}

