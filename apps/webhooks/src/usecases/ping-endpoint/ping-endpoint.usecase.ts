import type { Tenant } from '@ticketing/auth';
import { PING_EVENT } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import type { PrismaClient } from '../../db';
import type { SignedDelivery } from '../../delivery/signed-delivery';
import type { LoggedDelivery } from '../../domain/delivery';
import { DeliveryRepository } from '../../repositories/delivery.repository';
import { EndpointRepository } from '../../repositories/endpoint.repository';
import { NotificationRepository } from '../../repositories/notification.repository';

/**
 * Sends a `ping` notification to one endpoint now, disabled or not, and records it in the log
 * with its one attempt: a ping is never retried and does not count in the endpoint's failing streak.
 */
export class PingEndpointUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly delivery: SignedDelivery,
  ) {}

  async execute(tenant: Tenant, endpointId: string): Promise<LoggedDelivery> {
    const endpoint = await new EndpointRepository(this.prisma).findById(tenant, endpointId);
    if (!endpoint) throw ApiError.resourceMissing('webhook_endpoint', endpointId);
    const attemptedAt = new Date();
    const notification = { id: newId('ntf'), mode: tenant.mode, type: PING_EVENT, data: { endpoint_id: endpointId }, occurred_at: attemptedAt };
    const outcome = await this.delivery.send(endpoint, notification, attemptedAt);
    const deliveryId = await this.prisma.$transaction(async (tx) => {
      await new NotificationRepository(tx).createPing(tenant, notification);
      return new DeliveryRepository(tx).recordPing(tenant, notification.id, endpointId, { attemptedAt, ...outcome });
    });
    return (await new DeliveryRepository(this.prisma).findById(tenant, deliveryId))!;
  }
}
