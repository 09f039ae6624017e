import type { Tenant } from '@ticketing/auth';
import { newId } from '@ticketing/ids';
import type { PrismaClient } from '../../db';
import { validNewPaymentIntent, type PaymentIntent } from '../../domain/payment-intent';
import type { Processors } from '../../processors/payment-processor';
import { PaymentIntentRepository } from '../../repositories/payment-intent.repository';
import { enqueuePaymentIntentEvent } from '../../repositories/payment-intent-events';

export interface CreatePaymentIntentCommand {
  amount: number;
  currency: string;
  description: string;
  metadata: Record<string, string>;
  payment_method: string;
}

/** A plain-amount intent, awaiting its payment method or, given one, its confirmation; payment_intent.created with it. */
export class CreatePaymentIntentUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly processors: Processors,
  ) {}

  execute(tenant: Tenant, command: CreatePaymentIntentCommand): Promise<PaymentIntent> {
    const fields = validNewPaymentIntent(command);
    if (fields.payment_method) this.processors.of(tenant.mode).assertChargeable(fields.payment_method);
    return this.prisma.$transaction(async (tx) => {
      const intent = await new PaymentIntentRepository(tx).create(tenant, newId('pi'), fields);
      await enqueuePaymentIntentEvent(tx, tenant, 'payment_intent.created', intent);
      return intent;
    });
  }
}
