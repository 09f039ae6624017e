import type { Logger } from '@ticketing/observability';
import type { PrismaClient } from '../../db';
import { ChargeRepository } from '../../repositories/charge.repository';
import type { DriveChargeUseCase } from '../drive-charge/drive-charge.usecase';

const BATCH = 100;

/**
 * Finishes the charges still processing after `stalledForMs` (decision 0061): their confirmation
 * was cut off (a crash, a lost reply) or the processor had not decided. It is driven again
 * (DriveChargeUseCase): the processor, asked under the charge's id, answers the same charge, never
 * a new one, and its outcome is settled once. One the processor still cannot answer waits for the next pass. Answers how many
 * were settled.
 */
export class RedriveChargesUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly drive: DriveChargeUseCase,
    private readonly logger: Logger,
  ) {}

  async execute(stalledForMs: number): Promise<number> {
    let settled = 0;
    for (const charge of await new ChargeRepository(this.prisma).processingSince(new Date(Date.now() - stalledForMs), BATCH)) {
      try {
        if ((await this.drive.execute(charge)).status !== 'processing') settled += 1;
      } catch (error) {
        this.logger.warn({ err: error, charge_id: charge.id }, 'a processing charge could not be finished; it waits for the next pass');
      }
    }
    return settled;
  }
}
