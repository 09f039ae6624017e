import type { Tenant } from '@ticketing/auth';
import { integerInRange, requiredIdParam } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import { DEFAULT_DELIVERY_LINK_TTL_SECONDS, MAX_DELIVERY_LINK_TTL_SECONDS, type DeliveryLinks } from '../../delivery/delivery-links';
import { TicketRepository } from '../../repositories/ticket.repository';

/**
 * A signed link the holder opens to see the ticket (decision 0035); it shows the ticket as it is
 * when opened, while the holder it was made for still holds it.
 */
export class CreateDeliveryLinkUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly links: DeliveryLinks,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(tenant: Tenant, command: { id: string; ttl_seconds: number }): Promise<{ ticketId: string; url: string; expiresAt: Date }> {
    const id = requiredIdParam(command.id, 'id');
    const ttlSeconds = command.ttl_seconds === 0 ? DEFAULT_DELIVERY_LINK_TTL_SECONDS : integerInRange(command.ttl_seconds, 'ttl_seconds', 60, MAX_DELIVERY_LINK_TTL_SECONDS);
    const ticket = await new TicketRepository(this.prisma).getById(tenant, id);
    const expiresAt = new Date(Math.floor(this.clock().getTime() / 1000) * 1000 + ttlSeconds * 1000);
    return { ticketId: id, url: this.links.create({ ticketId: id, tenant, holderId: ticket.customer_id }, expiresAt), expiresAt };
  }
}
