import type { Logger } from '@ticketing/observability';
import type { PrismaClient } from './db';
import type { FeeSchedule } from './domain/fees';
import { Processors } from './processors/payment-processor';
import { SandboxProcessor } from './sandbox/sandbox-processor';
import { CompleteAuthenticationUseCase } from './usecases/complete-authentication/complete-authentication.usecase';
import { RedriveChargesUseCase } from './usecases/redrive-charges/redrive-charges.usecase';
import { SettleChargeUseCase } from './usecases/settle-charge/settle-charge.usecase';

export interface PaymentCoreSettings {
  fees: FeeSchedule;
  settlementDelayMs: number;
  /** How long a sandbox charge of pm_card_chargeDeclinedAfterDelay stays processing. */
  sandboxDeclineDelayMs: number;
  /** The gateway's public address, where the sandbox's authentication pages are. */
  publicBaseUrl: string;
}

/** The processors and the use cases that move charges on, shared by the gRPC services, the re-driver and the sandbox's pages. */
export interface PaymentCore {
  processors: Processors;
  settle: SettleChargeUseCase;
  redriveCharges: RedriveChargesUseCase;
  completeAuthentication: CompleteAuthenticationUseCase;
}

/** The processor of each mode around the sandbox; no live processor is built yet, so live charges are refused (decision 0061). */
const sandboxOnly = (sandbox: SandboxProcessor) => new Processors(sandbox, null);

export function paymentCore(prisma: PrismaClient, settings: PaymentCoreSettings, logger: Logger, processorsAround: (sandbox: SandboxProcessor) => Processors = sandboxOnly): PaymentCore {
  const sandbox = new SandboxProcessor(prisma, {
    delayMs: settings.sandboxDeclineDelayMs,
    authenticationUrl: (chargeId) => new URL(`/sandbox/authenticate/${chargeId}`, settings.publicBaseUrl).href,
  });
  const processors = processorsAround(sandbox);
  const settle = new SettleChargeUseCase(prisma, { fees: settings.fees, settlementDelayMs: settings.settlementDelayMs });
  return {
    processors,
    settle,
    redriveCharges: new RedriveChargesUseCase(prisma, processors, settle, logger),
    completeAuthentication: new CompleteAuthenticationUseCase(prisma, sandbox, settle),
  };
}
