import type { Logger } from '@ticketing/observability';
import { isRefusal } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import { PaymentIntentRepository } from '../../repositories/payment-intent.repository';
import type { CancelPaymentIntentUseCase } from '../cancel-payment-intent/cancel-payment-intent.usecase';

const BATCH = 100;

/**
 * Cancels order intents unpaid past their expiry (decision 0062), giving their units back. One
 * whose charge is in flight is left to finish (the charge sells or releases them); one that
 * cannot be canceled now is tried again at the next pass. Answers how many were canceled.
 */
export class ExpireOrderIntentsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly cancel: CancelPaymentIntentUseCase,
    private readonly logger: Logger,
  ) {}

  async execute(): Promise<number> {
    let canceled = 0;
    for (const { id, tenant } of await new PaymentIntentRepository(this.prisma).expiredHolding(new Date(), BATCH)) {
      try {
        await this.cancel.execute(null, tenant, id, 'expired');
        canceled += 1;
      } catch (error) {
        if (!isRefusal(error)) this.logger.warn({ err: error, payment_intent_id: id }, 'an expired order intent could not be canceled; the next pass tries again');
      }
    }
    return canceled;
  }
}
