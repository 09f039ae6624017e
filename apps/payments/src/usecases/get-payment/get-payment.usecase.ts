import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { PaymentRepository, type Payment } from '../../repositories/payment.repository';

export class GetPaymentUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, id: string): Promise<Payment> {
    const payment = await new PaymentRepository(this.prisma).findById(tenant, id);
    if (!payment) throw ApiError.resourceMissing('payment', id);
    return payment;
  }
}
