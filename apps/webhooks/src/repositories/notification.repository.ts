import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { ALL_WEBHOOK_EVENTS } from '@ticketing/contracts';
import { ENDPOINTS_PER_TENANT } from '../domain/endpoint';
import type { Prisma } from '../generated/prisma/client';
import type { WebhooksDb } from '../db';

export interface NotificationFields {
  source_event_id: string;
  type: string;
  data: Prisma.InputJsonValue;
  occurred_at: Date;
}

export interface StoredNotification {
  id: string;
  mode: string;
  type: string;
  data: unknown;
  occurred_at: Date;
}

export class NotificationRepository {
  constructor(private readonly db: WebhooksDb) {}

  /**
   * Records the notifications that some enabled endpoint of their tenant subscribes to and, in the
   * same statement, one delivery, due now, to each such endpoint (at most ENDPOINTS_PER_TENANT,
   * each given one of the ids made here). An event no endpoint subscribes to when it arrives is
   * not stored: there is nothing to deliver, and an endpoint made later gets the events after it.
   * For each, in order: how many deliveries it got (0 for one not subscribed to), or null (and
   * none) when its source event was recorded before: the unique source id is the consumer's inbox.
   */
  async createWithDeliveries(notifications: ReadonlyArray<{ tenant: Tenant; fields: NotificationFields }>): Promise<Array<number | null>> {
    const column = <T>(value: (notification: { tenant: Tenant; fields: NotificationFields }) => T) => notifications.map(value);
    const deliveryIds = Array.from({ length: notifications.length * ENDPOINTS_PER_TENANT }, () => newId('dlv'));
    const rows = await this.db.$queryRaw<Array<{ created: boolean; subscribed: boolean; deliveries: number }>>`
      WITH incoming AS (
        SELECT * FROM unnest(
          ${column(() => newId('ntf'))}::text[], ${column((n) => n.tenant.accountId)}::text[], ${column((n) => n.tenant.mode)}::text[],
          ${column((n) => n.fields.source_event_id)}::text[], ${column((n) => n.fields.type)}::text[],
          ${column((n) => JSON.stringify(n.fields.data))}::jsonb[], ${column((n) => n.fields.occurred_at)}::timestamptz[]
        ) WITH ORDINALITY AS incoming(id, account_id, mode, source_event_id, type, data, occurred_at, ordinal)
      ), subscribers AS (
        SELECT incoming.id AS notification_id, incoming.ordinal, incoming.account_id, incoming.mode, incoming.type, endpoint.id AS endpoint_id,
               row_number() OVER (PARTITION BY incoming.id ORDER BY endpoint.id) AS place
        FROM incoming
        JOIN webhook_endpoints endpoint ON endpoint.account_id = incoming.account_id AND endpoint.mode = incoming.mode
          AND endpoint.disabled_reason IS NULL AND endpoint.enabled_events && ARRAY[incoming.type, ${ALL_WEBHOOK_EVENTS}]::text[]
      ), created AS (
        INSERT INTO notifications (id, account_id, mode, source_event_id, type, data, occurred_at)
        SELECT id, account_id, mode, source_event_id, type, data, occurred_at FROM incoming
        WHERE EXISTS (SELECT FROM subscribers WHERE subscribers.notification_id = incoming.id)
        ON CONFLICT (source_event_id) DO NOTHING
        RETURNING id
      ), scheduled AS (
        INSERT INTO webhook_deliveries (id, account_id, mode, endpoint_id, notification_id, type, status, next_attempt_at)
        SELECT (${deliveryIds}::text[])[(ordinal - 1) * ${ENDPOINTS_PER_TENANT} + place], account_id, mode, endpoint_id, notification_id, type, 'pending', now()
        FROM subscribers JOIN created ON created.id = subscribers.notification_id
        RETURNING notification_id
      )
      SELECT created.id IS NOT NULL AS created,
             EXISTS (SELECT FROM subscribers WHERE subscribers.notification_id = incoming.id) AS subscribed,
             (SELECT count(*) FROM scheduled WHERE scheduled.notification_id = incoming.id)::int AS deliveries
      FROM incoming LEFT JOIN created ON created.id = incoming.id
      ORDER BY incoming.ordinal`;
    return rows.map((row) => (row.created ? row.deliveries : row.subscribed ? null : 0));
  }

  /** A ping, with the id it was sent under; it comes from no domain event, so its source is its own id. */
  async createPing(tenant: Tenant, ping: StoredNotification): Promise<void> {
    await this.db.notification.create({
      data: { id: ping.id, ...tenantScope(tenant), source_event_id: ping.id, type: ping.type, data: ping.data as Prisma.InputJsonValue, occurred_at: ping.occurred_at },
    });
  }

  findMany(ids: readonly string[]): Promise<StoredNotification[]> {
    return this.db.notification.findMany({ where: { id: { in: [...ids] } }, select: { id: true, mode: true, type: true, data: true, occurred_at: true } });
  }
}
