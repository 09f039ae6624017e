import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { requiredIdParam } from '@ticketing/fields';
import type { PrismaClient } from '../../db';
import type { TicketingCustomer } from '../../domain/customer';
import { CustomerRepository } from '../../repositories/customer.repository';

export class GetCustomerUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, id: string): Promise<TicketingCustomer> {
    const customer = await new CustomerRepository(this.prisma).findById(tenant, requiredIdParam(id, 'id'));
    if (!customer) throw ApiError.resourceMissing('customer', id);
    return customer;
  }
}
