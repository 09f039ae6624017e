import type { Logger } from '@ticketing/observability';
import type { PrismaClient } from '../../db';
import { IssuanceRepository } from '../../repositories/issuance.repository';
import { redriveStalled } from '../redrive-stalled';
import type { DriveIssuanceUseCase } from '../drive-issuance/drive-issuance.usecase';

/**
 * Drives on the issuances left pending by a crash or a lost call (decision 0030), so every unit
 * catalog sold ends up as tickets and every unit held is either sold or refused. One that still
 * cannot move (catalog unreachable) goes to the back of the queue and waits for the next pass.
 */
export class RedriveStalledIssuancesUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly drive: DriveIssuanceUseCase,
    private readonly logger: Logger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Issuances stalled for longer than `stalledForMs`, driven now; returns how many were settled. */
  execute(stalledForMs: number): Promise<number> {
    return redriveStalled({
      what: 'issuance',
      records: new IssuanceRepository(this.prisma),
      drive: (claims, tenant, id) => this.drive.execute(claims, tenant, id),
      stalledForMs,
      logger: this.logger,
      clock: this.clock,
    });
  }
}
