import type { Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { newId } from '@ticketing/ids';
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

  /** The new notification's id, or null when its source event was recorded before (the unique source id is the inbox). */
  async createOnce(tenant: Tenant, fields: NotificationFields): Promise<string | null> {
    const id = newId('ntf');
    const { count } = await this.db.notification.createMany({ data: [{ id, ...tenantScope(tenant), ...fields }], skipDuplicates: true });
    return count === 1 ? id : null;
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
