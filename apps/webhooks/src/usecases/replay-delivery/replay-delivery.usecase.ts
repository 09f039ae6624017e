import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import type { SignedDelivery } from '../../delivery/signed-delivery';
import type { LoggedDelivery } from '../../domain/delivery';
import { DeliveryRepository } from '../../repositories/delivery.repository';
import { EndpointRepository } from '../../repositories/endpoint.repository';
import { NotificationRepository } from '../../repositories/notification.repository';

/**
 * Sends a delivery again now, whatever its state, as one more attempt (decision 0053): a success
 * delivers it for good, a failure leaves its schedule as it was. A disabled endpoint gets it too
 * (the caller asked for this one); the endpoint's failing streak is the schedule's alone.
 */
export class ReplayDeliveryUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly delivery: SignedDelivery,
  ) {}

  async execute(tenant: Tenant, id: string): Promise<LoggedDelivery> {
    const deliveries = new DeliveryRepository(this.prisma);
    const logged = await deliveries.findById(tenant, id);
    if (!logged) throw ApiError.resourceMissing('webhook_delivery', id);
    const endpoint = await new EndpointRepository(this.prisma).findById(tenant, logged.endpoint_id);
    if (!endpoint) throw new ApiError('endpoint_deleted', `Delivery ${id} was for endpoint ${logged.endpoint_id}, which has been deleted; nothing can be sent.`);
    const [notification] = await new NotificationRepository(this.prisma).findMany([logged.notification_id]);
    const attemptedAt = new Date();
    const outcome = await this.delivery.send(endpoint, notification!, attemptedAt);
    await this.prisma.$transaction((tx) => new DeliveryRepository(tx).recordReplay(id, { attemptedAt, ...outcome }));
    return (await deliveries.findById(tenant, id))!;
  }
}
