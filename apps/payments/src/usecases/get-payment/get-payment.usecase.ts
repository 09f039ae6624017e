import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { PaymentRepository, type Payment } from '../../repositories/payment.repository';
import { RefundRepository, type Refund } from '../../repositories/refund.repository';

export class GetPaymentUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  /** The payment with its refunds, newest first. */
  async execute(tenant: Tenant, id: string): Promise<{ payment: Payment; refunds: Refund[] }> {
    const payment = await new PaymentRepository(this.prisma).findById(tenant, id);
    if (!payment) throw ApiError.resourceMissing('payment', id);
    return { payment, refunds: await new RefundRepository(this.prisma).ofPayment(id) };
  }
}
