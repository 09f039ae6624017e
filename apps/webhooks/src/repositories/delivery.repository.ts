import type { Tenant } from '@ticketing/auth';
import { PING_EVENT } from '@ticketing/contracts';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { WebhooksDb } from '../db';
import type { DeliveryBacklog } from '../delivery/delivery-metrics';
import type { AttemptRecord, ClaimedDelivery, DeliveryFilters, LoggedDelivery } from '../domain/delivery';

/** A scheduled attempt to record, with what follows it. */
export interface ScheduledAttempt {
  deliveryId: string;
  endpointId: string;
  record: AttemptRecord;
}

/** How many due deliveries a claim looks at, oldest first, before it picks at most its share per endpoint. */
const CLAIM_SCAN = 500;

const loggedColumns = {
  id: true,
  mode: true,
  endpoint_id: true,
  notification_id: true,
  type: true,
  status: true,
  attempt_count: true,
  next_attempt_at: true,
  last_attempt_at: true,
  created_at: true,
  attempts: { orderBy: { id: 'asc' }, select: { attempted_at: true, http_status: true, latency_ms: true, succeeded: true, error: true, response_body: true } },
} as const;

/** Deliveries and their attempts. The dispatcher's calls span tenants; the API's take one. */
export class DeliveryRepository {
  constructor(private readonly db: WebhooksDb) {}

  findById(tenant: Tenant, id: string): Promise<LoggedDelivery | null> {
    return this.db.webhookDelivery.findUnique({ where: { id, ...tenantScope(tenant) }, select: loggedColumns });
  }

  /** The log, newest first; a cursor that no longer matches the filters still marks its place. */
  pages(tenant: Tenant, filters: DeliveryFilters): PageSource<LoggedDelivery> {
    const scope = tenantScope(tenant);
    return {
      exists: async (id) => (await this.db.webhookDelivery.count({ where: { id, ...scope } })) > 0,
      fetch: (take, beforeId) =>
        this.db.webhookDelivery.findMany({ where: { ...scope, ...filters, ...idsBefore(beforeId) }, orderBy: { id: 'desc' }, take, select: loggedColumns }),
    };
  }

  /**
   * Takes up to `limit` due deliveries, oldest first, at most `perEndpoint` minus what is in
   * flight for each endpoint (`inFlight`), and leases them for `leaseMs`: another claim skips
   * them until the lease ends, when a delivery whose attempt was never recorded is due again.
   * Rows another dispatcher is claiming are skipped, not waited for.
   */
  async claimDue(limit: number, perEndpoint: number, inFlight: ReadonlyMap<string, number>, leaseMs: number): Promise<ClaimedDelivery[]> {
    const busy = [...inFlight].filter(([, count]) => count >= perEndpoint).map(([endpointId]) => endpointId);
    const partlyBusy = [...inFlight].filter(([, count]) => count < perEndpoint);
    return this.db.$queryRaw<ClaimedDelivery[]>`
      WITH oldest AS (
        SELECT id, endpoint_id, row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS place
        FROM (
          SELECT id, endpoint_id, next_attempt_at FROM webhook_deliveries
          WHERE status = 'pending' AND next_attempt_at <= now() AND endpoint_id <> ALL(${busy}::text[])
          ORDER BY next_attempt_at LIMIT ${CLAIM_SCAN}
        ) due
      ), room AS (
        SELECT endpoint_id, n FROM unnest(${partlyBusy.map(([endpointId]) => endpointId)}::text[], ${partlyBusy.map(([, count]) => count)}::int[]) AS flying(endpoint_id, n)
      ), chosen AS (
        SELECT d.id FROM webhook_deliveries d
        JOIN oldest ON oldest.id = d.id
        LEFT JOIN room ON room.endpoint_id = oldest.endpoint_id
        WHERE oldest.place <= ${perEndpoint} - coalesce(room.n, 0) AND d.status = 'pending' AND d.next_attempt_at <= now()
        ORDER BY d.next_attempt_at
        LIMIT ${limit}
        FOR UPDATE OF d SKIP LOCKED
      )
      UPDATE webhook_deliveries d
      SET next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
      FROM chosen WHERE d.id = chosen.id
      RETURNING d.id, d.endpoint_id, d.notification_id, d.attempt_count`;
  }

  /**
   * Records scheduled attempts and what follows each, in one statement: the attempt rows, each
   * delivery's new state, and the end of the failing streak of every endpoint that answered. A
   * delivery that stopped being pending meanwhile (a replay succeeded, its endpoint went) keeps
   * its state; its attempt is recorded.
   */
  async recordAttempts(attempts: readonly ScheduledAttempt[]): Promise<void> {
    const column = <T>(value: (attempt: ScheduledAttempt) => T) => attempts.map(value);
    await this.db.$executeRaw`
      WITH made AS (
        SELECT * FROM unnest(
          ${column((a) => a.deliveryId)}::text[], ${column((a) => a.endpointId)}::text[], ${column((a) => a.record.attemptedAt)}::timestamptz[],
          ${column((a) => a.record.status)}::int[], ${column((a) => a.record.latencyMs)}::int[], ${column((a) => a.record.succeeded)}::bool[],
          ${column((a) => a.record.error)}::text[], ${column((a) => a.record.responseBody)}::text[], ${column((a) => a.record.nextAttemptAt)}::timestamptz[]
        ) AS made(delivery_id, endpoint_id, attempted_at, http_status, latency_ms, succeeded, error, response_body, next_attempt_at)
      ), recorded AS (
        INSERT INTO webhook_attempts (delivery_id, attempted_at, http_status, latency_ms, succeeded, error, response_body)
        SELECT delivery_id, attempted_at, http_status, latency_ms, succeeded, error, response_body FROM made
      ), answered AS (
        UPDATE webhook_endpoints SET failing_since = NULL
        WHERE failing_since IS NOT NULL AND id IN (SELECT endpoint_id FROM made WHERE succeeded)
      )
      UPDATE webhook_deliveries d
      SET attempt_count = d.attempt_count + 1, last_attempt_at = made.attempted_at, updated_at = now(),
          status = CASE WHEN d.status <> 'pending' THEN d.status WHEN made.succeeded THEN 'succeeded' WHEN made.next_attempt_at IS NULL THEN 'failed' ELSE 'pending' END,
          next_attempt_at = CASE WHEN d.status <> 'pending' OR made.succeeded THEN NULL ELSE made.next_attempt_at END
      FROM made WHERE d.id = made.delivery_id`;
  }

  /**
   * Records an attempt made by hand (a replay): a success delivers it for good; a failure changes
   * nothing else, so a pending delivery keeps its schedule.
   */
  async recordReplay(deliveryId: string, attempt: Omit<AttemptRecord, 'nextAttemptAt'>): Promise<void> {
    await this.insertAttempt(deliveryId, attempt);
    await this.db.$executeRaw`
      UPDATE webhook_deliveries
      SET attempt_count = attempt_count + 1, last_attempt_at = ${attempt.attemptedAt}, updated_at = now(),
          status = CASE WHEN ${attempt.succeeded} THEN 'succeeded' ELSE status END,
          next_attempt_at = CASE WHEN ${attempt.succeeded} THEN NULL ELSE next_attempt_at END
      WHERE id = ${deliveryId}`;
  }

  /** A ping: sent before it is recorded, so its one attempt is written with it and never scheduled. */
  async recordPing(tenant: Tenant, notificationId: string, endpointId: string, attempt: Omit<AttemptRecord, 'nextAttemptAt'>): Promise<string> {
    const id = newId('dlv');
    await this.db.webhookDelivery.create({
      data: {
        id,
        ...tenantScope(tenant),
        endpoint_id: endpointId,
        notification_id: notificationId,
        type: PING_EVENT,
        status: attempt.succeeded ? 'succeeded' : 'failed',
        attempt_count: 1,
        last_attempt_at: attempt.attemptedAt,
      },
    });
    await this.insertAttempt(id, attempt);
    return id;
  }

  private async insertAttempt(deliveryId: string, attempt: Omit<AttemptRecord, 'nextAttemptAt'>): Promise<void> {
    await this.db.webhookAttempt.create({
      data: {
        delivery_id: deliveryId,
        attempted_at: attempt.attemptedAt,
        http_status: attempt.status,
        latency_ms: attempt.latencyMs,
        succeeded: attempt.succeeded,
        error: attempt.error,
        response_body: attempt.responseBody,
      },
    });
  }

  /** The deliveries due and not attempted yet (a claimed one is not due until its lease ends). */
  async backlog(): Promise<DeliveryBacklog> {
    const [row] = await this.db.$queryRaw<Array<{ due: number; oldest_due_seconds: number }>>`
      SELECT count(*)::int AS due, coalesce(extract(epoch FROM now() - min(next_attempt_at)), 0)::float8 AS oldest_due_seconds
      FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()`;
    return { due: row?.due ?? 0, oldestDueSeconds: row?.oldest_due_seconds ?? 0 };
  }

  /** Ends a delivery whose endpoint was deleted or disabled before it succeeded. */
  async cancel(deliveryId: string): Promise<void> {
    await this.db.webhookDelivery.updateMany({ where: { id: deliveryId, status: 'pending' }, data: { status: 'canceled', next_attempt_at: null } });
  }
}
