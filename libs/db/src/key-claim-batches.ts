import { GroupCommit } from './group-commit';
import type { RawSqlClient, RecordScope } from './idempotency-records';

/** A first claim of a key (EarlyKeyClaims.claim): no lapsed claim's outside work has been undone for it. */
export interface FirstClaim {
  scope: RecordScope;
  fingerprint: string;
  /** The id of what the call will hold outside the database, if anything. */
  actsOn: string | null;
  /** Not claimed once this has passed; null when the caller set no deadline. */
  deadline: Date | null;
}

/** A claim this call holds, unsealed, to give up. */
export interface HeldClaim {
  scope: RecordScope;
  fingerprint: string;
}

const tenantOf = (scope: RecordScope) => `${scope.accountId}/${scope.mode}`;
const rowOf = (scope: RecordScope) => `${scope.operation}\n${scope.keyHash}`;

/**
 * The key claims of one tenant that EarlyKeyClaims makes at the same moment, in one statement
 * each kind (decision 0055): under an on-sale of keyed calls, every sale claims its key and every
 * refusal gives it up, and alone that was a transaction per call. Each item is decided as its own
 * statement would decide it. Every statement that locks several keys' rows locks them in key
 * order, so two of them (from two replicas, say) never deadlock.
 */
export class KeyClaimBatches {
  private readonly claims: GroupCommit<FirstClaim, boolean>;
  private readonly lapses: GroupCommit<HeldClaim & { actsOn: string }, void>;
  private readonly releases: GroupCommit<HeldClaim, void>;

  constructor(
    private readonly client: RawSqlClient,
    private readonly leaseSeconds: number,
  ) {
    this.claims = new GroupCommit((_tenant, items) => this.claimTogether(items));
    this.lapses = new GroupCommit(async (_tenant, items) => {
      await this.lapseTogether(items);
      return items.map(() => undefined);
    });
    this.releases = new GroupCommit(async (_tenant, items) => {
      await this.releaseTogether(items);
      return items.map(() => undefined);
    });
  }

  /**
   * Claims the key when it is new, or its claim lapsed unsealed and recorded no outside work;
   * false otherwise (held, sealed, or the deadline passed), and for the second of two claims of
   * one key in one batch, which its own statement would have found held.
   */
  claim(first: FirstClaim): Promise<boolean> {
    return this.claims.run(tenantOf(first.scope), first);
  }

  /** Ages an unsealed claim past its lease, keeping the outside work it records (EarlyKeyClaims.lapse). */
  lapse(held: HeldClaim & { actsOn: string }): Promise<void> {
    return this.lapses.run(tenantOf(held.scope), held);
  }

  /** Deletes an unsealed claim. */
  release(held: HeldClaim): Promise<void> {
    return this.releases.run(tenantOf(held.scope), held);
  }

  private async claimTogether(items: FirstClaim[]): Promise<boolean[]> {
    const firstOfRow = new Map<string, FirstClaim>();
    for (const item of items) if (!firstOfRow.has(rowOf(item.scope))) firstOfRow.set(rowOf(item.scope), item);
    const distinct = [...firstOfRow.values()];
    const { accountId, mode } = items[0]!.scope;
    const claimed = await this.client.$queryRaw<Array<{ operation: string; key_hash: string }>>`
      INSERT INTO idempotency_keys (account_id, mode, operation, key_hash, fingerprint, acts_on)
      SELECT ${accountId}, ${mode}, c.operation, c.key_hash, c.fingerprint, c.acts_on
        FROM unnest(${distinct.map((item) => item.scope.operation)}::text[], ${distinct.map((item) => item.scope.keyHash)}::text[],
                    ${distinct.map((item) => item.fingerprint)}::text[], ${distinct.map((item) => item.actsOn)}::text[],
                    ${distinct.map((item) => item.deadline?.toISOString() ?? null)}::text[]::timestamptz[]) AS c(operation, key_hash, fingerprint, acts_on, deadline)
       WHERE c.deadline IS NULL OR clock_timestamp() < c.deadline
       ORDER BY c.operation, c.key_hash
      ON CONFLICT (account_id, mode, operation, key_hash) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, created_at = now(), acts_on = EXCLUDED.acts_on
        WHERE idempotency_keys.result IS NULL AND idempotency_keys.created_at < now() - make_interval(secs => ${this.leaseSeconds}) AND idempotency_keys.acts_on IS NULL
      RETURNING operation, key_hash`;
    const claimedRows = new Set(claimed.map((row) => `${row.operation}\n${row.key_hash}`));
    return items.map((item) => firstOfRow.get(rowOf(item.scope)) === item && claimedRows.has(rowOf(item.scope)));
  }

  private async lapseTogether(items: Array<HeldClaim & { actsOn: string }>): Promise<void> {
    const { accountId, mode } = items[0]!.scope;
    await this.client.$executeRaw`WITH held AS (
        SELECT k.operation, k.key_hash FROM idempotency_keys k
          JOIN unnest(${items.map((item) => item.scope.operation)}::text[], ${items.map((item) => item.scope.keyHash)}::text[],
                      ${items.map((item) => item.fingerprint)}::text[], ${items.map((item) => item.actsOn)}::text[]) AS c(operation, key_hash, fingerprint, acts_on)
            ON k.account_id = ${accountId} AND k.mode = ${mode} AND k.operation = c.operation AND k.key_hash = c.key_hash
           AND k.fingerprint = c.fingerprint AND k.result IS NULL AND k.acts_on = c.acts_on
         ORDER BY k.operation, k.key_hash
           FOR UPDATE OF k)
      UPDATE idempotency_keys k SET created_at = now() - make_interval(secs => ${this.leaseSeconds + 1})
        FROM held WHERE k.account_id = ${accountId} AND k.mode = ${mode} AND k.operation = held.operation AND k.key_hash = held.key_hash`;
  }

  private async releaseTogether(items: HeldClaim[]): Promise<void> {
    const { accountId, mode } = items[0]!.scope;
    await this.client.$executeRaw`WITH held AS (
        SELECT k.operation, k.key_hash FROM idempotency_keys k
          JOIN unnest(${items.map((item) => item.scope.operation)}::text[], ${items.map((item) => item.scope.keyHash)}::text[],
                      ${items.map((item) => item.fingerprint)}::text[]) AS c(operation, key_hash, fingerprint)
            ON k.account_id = ${accountId} AND k.mode = ${mode} AND k.operation = c.operation AND k.key_hash = c.key_hash
           AND k.fingerprint = c.fingerprint AND k.result IS NULL
         ORDER BY k.operation, k.key_hash
           FOR UPDATE OF k)
      DELETE FROM idempotency_keys k USING held WHERE k.account_id = ${accountId} AND k.mode = ${mode} AND k.operation = held.operation AND k.key_hash = held.key_hash`;
  }
}
