import type { Mode, Tenant } from '@ticketing/auth';
import { tenantScope } from '@ticketing/db';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { Prisma } from '../generated/prisma/client';
import type { WebhooksDb } from '../db';
import type { WebhookEndpoint } from '../domain/endpoint';

/** Advisory lock space of endpoint creation, per tenant (the key is a hash of account and mode). */
const ENDPOINT_CREATION_LOCK_SPACE = 52;

const endpointColumns = {
  id: true,
  account_id: true,
  mode: true,
  url: true,
  enabled_events: true,
  description: true,
  metadata: true,
  disabled_reason: true,
  sealed_secret: true,
  sealed_previous_secret: true,
  previous_secret_expires_at: true,
  created_at: true,
  updated_at: true,
} as const;

export type EndpointFields = Pick<WebhookEndpoint, 'url' | 'enabled_events' | 'description' | 'metadata' | 'sealed_secret'>;
export type EndpointChanges = Partial<Pick<WebhookEndpoint, 'url' | 'enabled_events' | 'description' | 'metadata' | 'disabled_reason'>> & { failing_since?: null };

type EndpointRow = Prisma.WebhookEndpointGetPayload<{ select: typeof endpointColumns }>;

/** The columns Prisma types loosely (mode and reason are strings, metadata JSON) as the domain knows them. */
const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  ...row,
  mode: row.mode as Mode,
  metadata: row.metadata as Record<string, string>,
  disabled_reason: row.disabled_reason as WebhookEndpoint['disabled_reason'],
});

/**
 * Webhook endpoints. The API's methods take the tenant and see nothing of another's rows; the
 * dispatcher's (`findForDelivery`, `markFailed`) act by id, for the delivery that named it.
 */
export class EndpointRepository {
  constructor(private readonly db: WebhooksDb) {}

  /** How many endpoints the tenant has, counted under a lock that the tenant's other creations wait for until this transaction ends. */
  async countForCreation(tenant: Tenant): Promise<number> {
    await this.db.$executeRaw`SELECT pg_advisory_xact_lock(${ENDPOINT_CREATION_LOCK_SPACE}::int, hashtext(${`${tenant.accountId}:${tenant.mode}`}))`;
    return this.db.webhookEndpoint.count({ where: tenantScope(tenant) });
  }

  async create(tenant: Tenant, id: string, fields: EndpointFields): Promise<WebhookEndpoint> {
    return toEndpoint(await this.db.webhookEndpoint.create({ data: { id, ...tenantScope(tenant), ...fields }, select: endpointColumns }));
  }

  async findById(tenant: Tenant, id: string): Promise<WebhookEndpoint | null> {
    const row = await this.db.webhookEndpoint.findUnique({ where: { id, ...tenantScope(tenant) }, select: endpointColumns });
    return row && toEndpoint(row);
  }

  /** The endpoints the dispatcher sends to, whatever their tenant: each delivery carries its own. */
  async findForDelivery(ids: readonly string[]): Promise<WebhookEndpoint[]> {
    return (await this.db.webhookEndpoint.findMany({ where: { id: { in: [...ids] } }, select: endpointColumns })).map(toEndpoint);
  }

  /**
   * Counts a failure into the endpoint's failing streak and disables it (reason 'failing') once
   * the streak began `disableAfterMs` or more before `at`. True only for the call that disabled it.
   */
  async markFailed(id: string, at: Date, disableAfterMs: number): Promise<boolean> {
    await this.db.webhookEndpoint.updateMany({ where: { id, failing_since: null }, data: { failing_since: at } });
    const { count } = await this.db.webhookEndpoint.updateMany({
      where: { id, disabled_reason: null, failing_since: { lte: new Date(at.getTime() - disableAfterMs) } },
      data: { disabled_reason: 'failing' },
    });
    return count === 1;
  }

  /** Applies the changes; null when the tenant has no such endpoint. */
  async update(tenant: Tenant, id: string, changes: EndpointChanges): Promise<WebhookEndpoint | null> {
    const { count } = await this.db.webhookEndpoint.updateMany({ where: { id, ...tenantScope(tenant) }, data: changes });
    return count === 0 ? null : this.findById(tenant, id);
  }

  /**
   * Puts a new secret in place and keeps the current one signing until `previousExpiresAt`, in one
   * statement, so two rotations at once cannot both keep the same old secret. Null when the
   * tenant has no such endpoint.
   */
  async rotateSecret(tenant: Tenant, id: string, sealedSecret: string, previousExpiresAt: Date): Promise<WebhookEndpoint | null> {
    const rotated = await this.db.$executeRaw`
      UPDATE webhook_endpoints
      SET sealed_previous_secret = sealed_secret, sealed_secret = ${sealedSecret}, previous_secret_expires_at = ${previousExpiresAt}, updated_at = now()
      WHERE id = ${id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode}`;
    return rotated === 0 ? null : this.findById(tenant, id);
  }

  /** False when the tenant has no such endpoint. Its id stays behind as a list cursor (`pages`). */
  async delete(tenant: Tenant, id: string): Promise<boolean> {
    const deleted = await this.db.$executeRaw`
      WITH gone AS (
        DELETE FROM webhook_endpoints WHERE id = ${id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode}
        RETURNING id, account_id, mode
      )
      INSERT INTO deleted_webhook_endpoints (id, account_id, mode) SELECT id, account_id, mode FROM gone`;
    return deleted === 1;
  }

  pages(tenant: Tenant): PageSource<WebhookEndpoint> {
    const scope = tenantScope(tenant);
    return {
      // An endpoint deleted since its page was read still marks its place.
      exists: async (id) =>
        (await this.db.webhookEndpoint.count({ where: { id, ...scope } })) > 0 || (await this.db.deletedWebhookEndpoint.count({ where: { id, ...scope } })) > 0,
      fetch: async (take, beforeId) =>
        (await this.db.webhookEndpoint.findMany({ where: { ...scope, ...idsBefore(beforeId) }, orderBy: { id: 'desc' }, take, select: endpointColumns })).map(toEndpoint),
    };
  }
}
