import { escapeLiteral, type Pool, type QueryResult } from 'pg';
import type { OutboxBacklog } from './metrics';

/** Serialises claim transactions (each a few milliseconds); never held while sending. */
const CLAIM_LOCK_KEY = 7_200_301;

export interface ClaimedMessage {
  position: string;
  topic: string;
  message_key: string;
  payload: { account_id: string; mode: 'test' | 'live'; request_id?: string };
}

/**
 * The relay's three short transactions on `outbox_messages` (docs/decisions/0019): claim the
 * oldest unpublished messages for a lease, mark them published once Kafka has them, or release
 * them when the send failed; and, past their retention, delete what was published (0059). A claim takes whole keys: every unpublished message of a key whose
 * newer messages it takes, and no key another relay holds under a live lease. So one aggregate's
 * messages are sent by one relay at a time, oldest first, while relays share the other keys.
 */
export class OutboxClaims {
  constructor(
    private readonly pool: Pool,
    private readonly relayId: string,
  ) {}

  /**
   * Up to `limit` messages, oldest first, leased to this relay for `leaseMs`. One round trip: the
   * lock and the claim go as one simple query, which PostgreSQL runs as one transaction, each
   * statement with its own snapshot, so the claim sees every claim committed before it took the
   * lock. (Parameters would need the extended protocol, one statement per message, and so a
   * BEGIN, a lock, the claim and a COMMIT each waiting for the one before; the values here are
   * this relay's own id, escaped, and two integers.)
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedMessage[]> {
    if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(leaseMs)) throw new Error(`claim limit and lease must be integers, not ${limit} and ${leaseMs}`);
    const relay = escapeLiteral(this.relayId);
    const results = (await this.pool.query(
      `SELECT pg_advisory_xact_lock(${CLAIM_LOCK_KEY});
       WITH held_keys AS (
         SELECT DISTINCT message_key FROM outbox_messages
          WHERE published_at IS NULL AND claimed_until > now() AND claimed_by <> ${relay}
       ), next AS (
         SELECT position FROM outbox_messages
          WHERE published_at IS NULL AND message_key NOT IN (SELECT message_key FROM held_keys)
          ORDER BY position LIMIT ${limit}
       )
       UPDATE outbox_messages o SET claimed_by = ${relay}, claimed_until = now() + make_interval(secs => ${leaseMs}::float8 / 1000)
         FROM next WHERE o.position = next.position
       RETURNING o.position, o.topic, o.message_key, o.payload`,
    )) as unknown as [QueryResult, QueryResult<ClaimedMessage>];
    return results[1].rows.sort((a, b) => (BigInt(a.position) < BigInt(b.position) ? -1 : 1));
  }

  /** After Kafka acknowledged them; the claim goes too, so a message reset by hand is free at once. */
  async markPublished(messages: ClaimedMessage[]): Promise<void> {
    await this.pool.query(
      `UPDATE outbox_messages SET published_at = now(), claimed_by = NULL, claimed_until = NULL
        WHERE position = ANY($1::bigint[]) AND published_at IS NULL`,
      [positionsOf(messages)],
    );
  }

  /**
   * Deletes the published messages among the `limit` oldest whose publication is older than
   * `publishedBefore`; answers how many. Only the oldest rows are looked at (by position, the
   * primary key), so a sweep costs the same however large the outbox, and stops where the
   * messages turn recent. A message still unpublished stays, wherever it stands.
   */
  async prunePublished(publishedBefore: Date, limit: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM outbox_messages WHERE position IN (
         SELECT position FROM (SELECT position, published_at FROM outbox_messages ORDER BY position LIMIT $2) oldest
          WHERE published_at < $1)`,
      [publishedBefore, limit],
    );
    return rowCount ?? 0;
  }

  /** The relays whose claims keep others off keys now. */
  async claimants(): Promise<string[]> {
    const { rows } = await this.pool.query<{ claimed_by: string }>(
      `SELECT DISTINCT claimed_by FROM outbox_messages WHERE published_at IS NULL AND claimed_until > now() AND claimed_by IS NOT NULL`,
    );
    return rows.map((row) => row.claimed_by);
  }

  /** Drops the claims of relays known to be gone, so their keys need not wait out the lease; answers how many messages. */
  async releaseClaimsOf(relayIds: string[]): Promise<number> {
    const { rowCount } = await this.pool.query(`UPDATE outbox_messages SET claimed_by = NULL, claimed_until = NULL WHERE published_at IS NULL AND claimed_by = ANY($1::text[])`, [relayIds]);
    return rowCount ?? 0;
  }

  /** After a failed send: another relay may take the keys now rather than when the lease ends. */
  async release(messages: ClaimedMessage[]): Promise<void> {
    await this.pool.query(`UPDATE outbox_messages SET claimed_by = NULL, claimed_until = NULL WHERE position = ANY($1::bigint[]) AND claimed_by = $2`, [
      positionsOf(messages),
      this.relayId,
    ]);
  }

  async backlog(): Promise<OutboxBacklog> {
    const { rows } = await this.pool.query<{ unpublished: number; oldest_age_seconds: number }>(
      `SELECT count(*)::int AS unpublished, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest_age_seconds
         FROM outbox_messages WHERE published_at IS NULL`,
    );
    return { unpublished: rows[0]!.unpublished, oldestAgeSeconds: rows[0]!.oldest_age_seconds };
  }
}

function positionsOf(messages: ClaimedMessage[]): string[] {
  return messages.map((message) => message.position);
}
