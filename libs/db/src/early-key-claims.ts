import { sqltag, type Sql } from '@prisma/client/runtime/client';
import { ApiError } from '@ticketing/errors';
import { keyInUse, keyReused, replay, scopeOf, seal, type IdempotentWrite, type RawSqlClient, type RecordScope, type TransactionOptions, type TransactionRunner } from './idempotency-records';
import { KeyClaimBatches } from './key-claim-batches';

function tooLateToClaim(): ApiError {
  return new ApiError('service_unavailable', 'The call reached its deadline before it could start, and did nothing; retry with the same Idempotency-Key.');
}

/** Writes whose key was claimed before their transaction (EarlyKeyClaims), with the scope they claimed. */
const claimedEarly = new WeakMap<IdempotentWrite, RecordScope>();
/** Those of them whose write sealed its result. */
const sealedEarly = new WeakSet<IdempotentWrite>();

/** The condition on the key's row that it is still this request's claim, unsealed. */
function unsealedClaim(write: IdempotentWrite, scope: RecordScope): Sql {
  return sqltag`account_id = ${scope.accountId} AND mode = ${scope.mode} AND operation = ${scope.operation} AND key_hash = ${scope.keyHash}
    AND fingerprint = ${write.fingerprint} AND result IS NULL`;
}

/** The recorded transaction of a write whose key was claimed early; undefined for any other write. */
export function earlyClaimedTransaction<R>(client: TransactionRunner, write: IdempotentWrite, work: (tx: RawSqlClient) => Promise<R>, options?: TransactionOptions): Promise<R> | undefined {
  const scope = claimedEarly.get(write);
  return scope && sealedTransaction(client, write, scope, work, options);
}

/**
 * The write of a call whose key it claimed early: sealing the result is what makes the write
 * this key's, and only while the claim is still this request's and unsealed. Otherwise (the
 * claim lapsed and a retry took it over) the write rolls back.
 */
function sealedTransaction<R>(client: TransactionRunner, write: IdempotentWrite, scope: RecordScope, work: (tx: RawSqlClient) => Promise<R>, options?: TransactionOptions): Promise<R> {
  return client.$transaction(async (tx) => {
    const result = await work(tx);
    // A statement of the work sealed its own result (EarlyKeyClaims.statementSeal).
    if (sealedEarly.has(write)) return result;
    const sealed = await tx.$executeRaw`UPDATE idempotency_keys SET result = ${seal(write.key, scope, result)} WHERE ${unsealedClaim(write, scope)}`;
    if (sealed !== 1) throw keyInUse();
    sealedEarly.add(write);
    return result;
  }, options);
}

/**
 * The parts of a write statement that make it an early-claimed key's write, as CTEs:
 *
 *   WITH key_claim AS (claim), written AS (INSERT … SELECT … FROM key_claim …),
 *        key_sealed AS (seal AND EXISTS (SELECT 1 FROM written))
 *   SELECT * FROM written
 *
 * `claim` locks the key's row while it is still this request's and unsealed (a lapsed claim
 * another call took over and sealed is not), so the write happens only under it; `seal` stores
 * the result with it. Then `confirm` with whether the statement wrote: if not, the claim was
 * lost and it throws `idempotency_key_in_use`.
 */
export interface StatementSeal {
  readonly claim: Sql;
  readonly seal: Sql;
  /**
   * The same claim and seal as values, for a statement that writes several calls' rows at once:
   * it locks each key's `idempotency_keys` row (the call's tenant, `operation`, `keyHash`,
   * `fingerprint`, `result IS NULL`) before writing that call's row, and sets `result` to
   * `sealed` if it wrote it.
   */
  readonly key: { operation: string; keyHash: string; fingerprint: string; sealed: Buffer };
  confirm(wrote: boolean): void;
}

/**
 * What a call does outside its database under its claim before it writes (units it holds in
 * another service, under `id`), and how to undo it. A call that takes over a claim that lapsed
 * unsealed undoes what the lapsed call did first: that call died, or will fail to seal, and what
 * it holds would otherwise stand in the retry's way (a tier its hold sold out) until it expires.
 */
export interface OutsideWork {
  id: string;
  undo(id: string): Promise<void>;
}

/**
 * For writes that act outside their database before their transaction (a use case that holds
 * inventory in another service, then records what it holds). Claiming the key only in the
 * transaction would let a retry that arrives while the first call is still on its way (the
 * client's deadline passed, the first call did not stop) act on its own and answer a refusal
 * (`sold_out`) although the first call then writes. So such a write claims its key first, in a
 * statement of its own, and answers from the key's record before it acts:
 *
 * - the key is new, or its claim lapsed unsealed (a call that died): this call claims it (after
 *   undoing the lapsed call's outside work, `OutsideWork`), acts, and seals its result with its
 *   write (in its transaction, or in its one statement: `statementSeal`); a failure gives the
 *   claim up, so a retry runs again (nothing is recorded for a refusal, as with every recorded
 *   write). A call that acted outside gives it up lapsed, with its work: that work may have
 *   happened though its reply was lost, so the retry undoes it first;
 * - the key holds a sealed result: it is replayed, with nothing done;
 * - the key's claim is still running: 409 `idempotency_key_in_use`, which the client retries.
 *
 * A claim lapses after `leaseSeconds`, which must outlast every call (its held inventory
 * expires by then). A call that outlives its claim cannot seal: its write rolls back, so a key
 * never writes twice. Calls without a key run as they are.
 */
export class EarlyKeyClaims {
  /** First claims, lapses and releases of a tenant's keys made at the same moment go in one statement each (decision 0055). */
  private readonly batches: KeyClaimBatches;

  constructor(
    private readonly client: RawSqlClient,
    private readonly currentWrite: () => IdempotentWrite | undefined,
    private readonly leaseSeconds: number,
    private readonly warn: (details: object, message: string) => void,
  ) {
    this.batches = new KeyClaimBatches(client, leaseSeconds);
  }

  /**
   * For a write made in one statement, inside `run`: what makes that statement the key's write,
   * so it needs no transaction of its own. Null when the call has no key. `result` is what a
   * retry replays, so it must be known before the statement runs (an id chosen beforehand).
   */
  statementSeal(result: unknown): StatementSeal | null {
    const write = this.currentWrite();
    if (!write) return null;
    const scope = claimedEarly.get(write);
    if (!scope) throw new Error(`${write.operation}: a statement seal needs the key claimed first (EarlyKeyClaims.run)`);
    const stillClaimed = unsealedClaim(write, scope);
    const sealed = seal(write.key, scope, result);
    return {
      claim: sqltag`SELECT 1 FROM idempotency_keys WHERE ${stillClaimed} FOR UPDATE`,
      seal: sqltag`UPDATE idempotency_keys SET result = ${sealed} WHERE ${stillClaimed}`,
      key: { operation: scope.operation, keyHash: scope.keyHash, fingerprint: write.fingerprint, sealed },
      confirm: (wrote) => {
        if (!wrote) throw keyInUse();
        sealedEarly.add(write);
      },
    };
  }

  /**
   * `act` under the current call's key claimed first; `replay` with the result an earlier call
   * of this key sealed instead, when there is one. `outside` is what `act` does outside this
   * database before it writes, recorded with the claim.
   */
  async run<R>(act: () => Promise<R>, replay: (earlier: unknown) => Promise<R>, outside?: OutsideWork): Promise<R> {
    const write = this.currentWrite();
    if (!write) return act();
    const scope = scopeOf(write);
    const earlier = await this.claim(write, scope, outside);
    if (earlier) return replay(earlier.result);
    claimedEarly.set(write, scope);
    try {
      const result = await act();
      // A claim left unsealed would lapse, and a retry would then act a second time.
      if (!sealedEarly.has(write)) throw new Error(`${write.operation} claimed its Idempotency-Key early but wrote nothing under it`);
      return result;
    } catch (error) {
      await (outside ? this.lapse(write, scope, outside) : this.release(write, scope));
      throw error;
    }
  }

  /**
   * Nothing when this call now holds the claim; else the sealed result to replay. A call whose
   * deadline passed before its claim was taken (it waited for a pooled connection or a lock)
   * claims nothing: its caller has given up and may have retried, and that retry, told the
   * outcome of its own attempt, must not be contradicted by this one acting after it.
   */
  private async claim(write: IdempotentWrite, scope: RecordScope, outside: OutsideWork | undefined): Promise<{ result: unknown } | undefined> {
    const deadline = write.deadline ?? null;
    /** The lapsed claim's outside work this call has undone: only a claim with that work, or none, is taken over. */
    let undone: string | null = null;
    // A record can vanish between the two statements (its claim released), or a lapsed claim's
    // work be undone: claim again then.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const claimed =
        undone === null
          ? await this.batches.claim({ scope, fingerprint: write.fingerprint, actsOn: outside?.id ?? null, deadline })
          : await this.claimAlone(write, scope, outside, undone, deadline);
      if (claimed) return undefined;
      if (deadline !== null && deadline.getTime() <= Date.now()) throw tooLateToClaim();
      const record = await this.client.$queryRaw<Array<{ fingerprint: string; result: Uint8Array | null; acts_on: string | null; lapsed: boolean }>>`SELECT fingerprint, result, acts_on,
          created_at < now() - make_interval(secs => ${this.leaseSeconds}) AS lapsed
        FROM idempotency_keys
        WHERE account_id = ${scope.accountId} AND mode = ${scope.mode} AND operation = ${scope.operation} AND key_hash = ${scope.keyHash}`;
      const [found] = record;
      if (!found) continue;
      if (found.result !== null) return { result: replay(write, scope, { fingerprint: found.fingerprint, result: found.result }) };
      if (found.fingerprint !== write.fingerprint) throw keyReused();
      if (!found.lapsed || found.acts_on === null || found.acts_on === undone || !outside) throw keyInUse();
      // A lapsed claim whose call acted outside: undo that before taking the claim over.
      await outside.undo(found.acts_on);
      undone = found.acts_on;
    }
    throw keyInUse();
  }

  /** Claims the key as `claim` does, or takes over the lapsed claim whose outside work (`undone`) this call has just undone. */
  private async claimAlone(write: IdempotentWrite, scope: RecordScope, outside: OutsideWork | undefined, undone: string, deadline: Date | null): Promise<boolean> {
    const claimed = await this.client.$executeRaw`INSERT INTO idempotency_keys (account_id, mode, operation, key_hash, fingerprint, acts_on)
      SELECT ${scope.accountId}, ${scope.mode}, ${scope.operation}, ${scope.keyHash}, ${write.fingerprint}, ${outside?.id ?? null}
      WHERE ${deadline}::timestamptz IS NULL OR clock_timestamp() < ${deadline}::timestamptz
      ON CONFLICT (account_id, mode, operation, key_hash) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, created_at = now(), acts_on = EXCLUDED.acts_on
        WHERE idempotency_keys.result IS NULL AND idempotency_keys.created_at < now() - make_interval(secs => ${this.leaseSeconds})
          AND (idempotency_keys.acts_on IS NULL OR idempotency_keys.acts_on = ${undone})`;
    return claimed === 1;
  }

  /**
   * Best effort: ages the claim past its lease, keeping the outside work it records, so the next
   * call under the key undoes that work and takes the claim over at once. A call whose outside
   * work failed may still have done it (catalog held the units, and the reply was lost), and a
   * retry that did not undo it would find it in its way (a tier sold out by its own first try).
   * Only this call's own claim: one that outlived its lease may have been taken over meanwhile.
   */
  private async lapse(write: IdempotentWrite, scope: RecordScope, outside: OutsideWork): Promise<void> {
    await this.batches.lapse({ scope, fingerprint: write.fingerprint, actsOn: outside.id }).catch((error: unknown) =>
      this.warn({ err: error, operation: scope.operation }, `idempotency key not given up; retries are told it is in use until its claim lapses in ${this.leaseSeconds} s`),
    );
  }

  /** Best effort: a claim not released now lapses after the lease, and retries meanwhile are told the key is in use. */
  private async release(write: IdempotentWrite, scope: RecordScope): Promise<void> {
    await this.batches.release({ scope, fingerprint: write.fingerprint }).catch((error: unknown) =>
      this.warn({ err: error, operation: scope.operation }, `idempotency key not released; retries are told it is in use until its claim lapses in ${this.leaseSeconds} s`),
    );
  }
}

