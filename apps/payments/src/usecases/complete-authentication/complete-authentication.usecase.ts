import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import type { PaymentIntent } from '../../domain/payment-intent';
import type { SandboxProcessor } from '../../sandbox/sandbox-processor';
import { ChargeRepository } from '../../repositories/charge.repository';
import type { DriveChargeUseCase } from '../drive-charge/drive-charge.usecase';

/**
 * The buyer's answer on the sandbox's authentication page (requires_action): the charge succeeds
 * if they authenticated and fails if not, and it is driven on (an order's units sold) with it. Answering again, or a
 * charge no longer awaiting authentication, changes nothing; the intent is answered as it is.
 */
export class CompleteAuthenticationUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly sandbox: SandboxProcessor,
    private readonly drive: DriveChargeUseCase,
  ) {}

  async execute(chargeId: string, authenticated: boolean): Promise<PaymentIntent> {
    const charge = await new ChargeRepository(this.prisma).findById(chargeId);
    if (!charge || charge.mode !== 'test') throw ApiError.resourceMissing('charge', chargeId);
    await this.sandbox.authenticate(chargeId, authenticated);
    return this.drive.execute(charge);
  }
}
