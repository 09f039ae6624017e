import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import type { TicketingTicket } from '../../domain/ticket';
import { TicketRepository } from '../../repositories/ticket.repository';

export class GetTicketUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, id: string): Promise<TicketingTicket> {
    const ticket = await new TicketRepository(this.prisma).findById(tenant, requiredIdParam(id, 'id'));
    if (!ticket) throw ApiError.resourceMissing('ticket', id);
    return ticket;
  }
}
