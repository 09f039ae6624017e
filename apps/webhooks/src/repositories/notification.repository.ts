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

export class NotificationRepository {
  constructor(private readonly db: WebhooksDb) {}

  async create(tenant: Tenant, fields: NotificationFields): Promise<string> {
    const { id } = await this.db.notification.create({ data: { id: newId('ntf'), ...tenantScope(tenant), ...fields }, select: { id: true } });
    return id;
  }
}
