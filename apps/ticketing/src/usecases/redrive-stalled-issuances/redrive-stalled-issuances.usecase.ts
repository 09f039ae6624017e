import type { InternalClaims } from '@ticketing/auth';
import { newId } from '@ticketing/ids';
import type { Logger } from '@ticketing/observability';
import type { PrismaClient } from '../../db';
import { IssuanceRepository } from '../../repositories/issuance.repository';
import { isRefusal } from '../call-outcomes';
import type { DriveIssuanceUseCase } from '../drive-issuance/drive-issuance.usecase';

const BATCH = 100;

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
  async execute(stalledForMs: number): Promise<number> {
    const issuances = new IssuanceRepository(this.prisma);
    const stalled = await issuances.stalled(new Date(this.clock().getTime() - stalledForMs), BATCH);
    let settled = 0;
    for (const { id, tenant } of stalled) {
      const claims: InternalClaims = { request_id: newId('req'), tenant: { account_id: tenant.accountId, mode: tenant.mode } };
      try {
        await this.drive.execute(claims, tenant, id);
        settled += 1;
      } catch (error) {
        if (isRefusal(error)) {
          settled += 1;
          continue;
        }
        this.logger.warn({ err: error, issuance_id: id }, 'a stalled issuance could not be driven on; it waits for the next pass');
        await issuances.postpone(id, this.clock());
      }
    }
    return settled;
  }
}
