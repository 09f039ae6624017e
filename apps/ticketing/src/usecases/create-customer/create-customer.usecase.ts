import type { Tenant } from '@ticketing/auth';
import type { PrismaClient } from '../../db';
import { customerExists, validCustomerDetails, type TicketingCustomer } from '../../domain/customer';
import { CustomerRepository } from '../../repositories/customer.repository';

/** A new customer; an email that already has one is refused, naming it (customer_exists). */
export class CreateCustomerUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, command: { email: string; name: string }): Promise<TicketingCustomer> {
    const details = validCustomerDetails(command.email, command.name);
    return this.prisma.$transaction(async (tx) => {
      const customers = new CustomerRepository(tx);
      const created = await customers.create(tenant, details);
      if (created) return created;
      const existing = await customers.findByEmail(tenant, details.email);
      throw customerExists(existing!);
    });
  }
}
