import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import type { PaymentIntent } from '../../domain/payment-intent';
import { PaymentIntentRepository } from '../../repositories/payment-intent.repository';

export class GetPaymentIntentUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant, id: string): Promise<PaymentIntent> {
    const intent = await new PaymentIntentRepository(this.prisma).findById(tenant, id);
    if (!intent) throw ApiError.resourceMissing('payment_intent', id);
    return intent;
  }
}
