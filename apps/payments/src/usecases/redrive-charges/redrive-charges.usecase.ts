import type { Logger } from '@ticketing/observability';
import type { PrismaClient } from '../../db';
import type { Processors } from '../../processors/payment-processor';
import { ChargeRepository } from '../../repositories/charge.repository';
import type { SettleChargeUseCase } from '../settle-charge/settle-charge.usecase';

const BATCH = 100;

/**
 * Finishes the charges still processing after `stalledForMs` (decision 0061): their confirmation
 * was cut off (a crash, a lost reply) or the processor had not decided. The processor is asked
 * again under the charge's id, which answers the same charge, never a new one, and its outcome is
 * settled once. One the processor still cannot answer waits for the next pass. Answers how many
 * were settled.
 */
export class RedriveChargesUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly processors: Processors,
    private readonly settle: SettleChargeUseCase,
    private readonly logger: Logger,
  ) {}

  async execute(stalledForMs: number): Promise<number> {
    let settled = 0;
    for (const charge of await new ChargeRepository(this.prisma).processingSince(new Date(Date.now() - stalledForMs), BATCH)) {
      try {
        const outcome = await this.processors.of(charge.mode).charge({ chargeId: charge.id, amount: charge.amount, currency: charge.currency, paymentMethod: charge.payment_method });
        if (outcome.status === 'processing') continue;
        await this.settle.execute(charge, outcome);
        settled += 1;
      } catch (error) {
        this.logger.warn({ err: error, charge_id: charge.id }, 'a processing charge could not be finished; it waits for the next pass');
      }
    }
    return settled;
  }
}
