import type { Tenant } from '@ticketing/auth';
import { requiredIdParam } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import type { TicketingTicket } from '../../domain/ticket';
import { TicketRepository } from '../../repositories/ticket.repository';

export class GetTicketUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, id: string): Promise<TicketingTicket> {
    return new TicketRepository(this.prisma).getById(tenant, requiredIdParam(id, 'id'));
  }
}
