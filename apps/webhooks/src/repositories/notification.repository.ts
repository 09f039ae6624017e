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
   * Records the notification and, in the same statement, one delivery, due now, to each enabled
   * endpoint of the tenant that subscribes to its type (at most ENDPOINTS_PER_TENANT, each given
   * one of the ids made here). Null, and no deliveries, when its source event was recorded before:
   * the unique source id is the consumer's inbox.
   */
  async createWithDeliveries(tenant: Tenant, fields: NotificationFields): Promise<{ id: string; deliveries: number } | null> {
    const id = newId('ntf');
    const deliveryIds = Array.from({ length: ENDPOINTS_PER_TENANT }, () => newId('dlv'));
    const [created] = await this.db.$queryRaw<Array<{ id: string; deliveries: number }>>`
      WITH created AS (
        INSERT INTO notifications (id, account_id, mode, source_event_id, type, data, occurred_at)
        VALUES (${id}, ${tenant.accountId}, ${tenant.mode}, ${fields.source_event_id}, ${fields.type}, ${JSON.stringify(fields.data)}::jsonb, ${fields.occurred_at})
        ON CONFLICT (source_event_id) DO NOTHING
        RETURNING id
      ), subscribers AS (
        SELECT id, row_number() OVER (ORDER BY id) AS place FROM webhook_endpoints
        WHERE account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND disabled_reason IS NULL
          AND enabled_events && ARRAY[${fields.type}, ${ALL_WEBHOOK_EVENTS}]::text[]
      ), scheduled AS (
        INSERT INTO webhook_deliveries (id, account_id, mode, endpoint_id, notification_id, type, status, next_attempt_at)
        SELECT delivery.id, ${tenant.accountId}, ${tenant.mode}, subscribers.id, created.id, ${fields.type}, 'pending', now()
        FROM created, subscribers JOIN unnest(${deliveryIds}::text[]) WITH ORDINALITY AS delivery(id, place) USING (place)
        RETURNING 1
      )
      SELECT created.id, (SELECT count(*) FROM scheduled)::int AS deliveries FROM created`;
    return created ?? null;
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
