import type { Logger } from '@ticketing/observability';
import type { CatalogOrders } from './catalog/catalog-orders';
import type { OrderSeatHolds } from './ticketing/seat-holds';
import type { PrismaClient } from './db';
import type { FeeSchedule } from './domain/fees';
import { Processors } from './processors/payment-processor';
import { SandboxProcessor } from './sandbox/sandbox-processor';
import { CancelPaymentIntentUseCase } from './usecases/cancel-payment-intent/cancel-payment-intent.usecase';
import { ExpireOrderIntentsUseCase } from './usecases/expire-order-intents/expire-order-intents.usecase';
import { RefundPaymentUseCase } from './usecases/refund-payment/refund-payment.usecase';
import { DriveChargeUseCase } from './usecases/drive-charge/drive-charge.usecase';
import { CompleteAuthenticationUseCase } from './usecases/complete-authentication/complete-authentication.usecase';
import { RedriveChargesUseCase } from './usecases/redrive-charges/redrive-charges.usecase';
import { SettleChargeUseCase } from './usecases/settle-charge/settle-charge.usecase';

export interface PaymentCoreSettings {
  fees: FeeSchedule;
  settlementDelayMs: number;
  /** How long a sandbox charge of pm_card_chargeDeclinedAfterDelay stays processing. */
  sandboxDeclineDelayMs: number;
  /** How long the sandbox takes to answer a charge (its reply in transit). */
  sandboxLatencyMs: number;
  /** The gateway's public address, where the sandbox's authentication pages are. */
  publicBaseUrl: string;
  /** How long an order intent holds its units unpaid. */
  orderLifetimeSeconds: number;
}

/** The processors and the use cases that move charges on, shared by the gRPC services, the re-driver and the sandbox's pages. */
export interface PaymentCore {
  settings: PaymentCoreSettings;
  processors: Processors;
  catalog: CatalogOrders;
  seatHolds: OrderSeatHolds;
  settle: SettleChargeUseCase;
  drive: DriveChargeUseCase;
  redriveCharges: RedriveChargesUseCase;
  expireOrders: ExpireOrderIntentsUseCase;
  refunds: RefundPaymentUseCase;
  completeAuthentication: CompleteAuthenticationUseCase;
}

/** The processor of each mode around the sandbox; no live processor is built yet, so live charges are refused (decision 0061). */
const sandboxOnly = (sandbox: SandboxProcessor) => new Processors(sandbox, null);

export function paymentCore(
  prisma: PrismaClient,
  { catalog, seatHolds }: { catalog: CatalogOrders; seatHolds: OrderSeatHolds },
  settings: PaymentCoreSettings,
  logger: Logger,
  processorsAround: (sandbox: SandboxProcessor) => Processors = sandboxOnly): PaymentCore {
  const sandbox = new SandboxProcessor(prisma, {
    delayMs: settings.sandboxDeclineDelayMs,
    latencyMs: settings.sandboxLatencyMs,
    authenticationUrl: (chargeId) => new URL(`/sandbox/authenticate/${chargeId}`, settings.publicBaseUrl).href,
  });
  const processors = processorsAround(sandbox);
  const settle = new SettleChargeUseCase(prisma, { fees: settings.fees, settlementDelayMs: settings.settlementDelayMs });
  const drive = new DriveChargeUseCase(prisma, processors, catalog, settle);
  return {
    settings,
    processors,
    catalog,
    seatHolds,
    settle,
    drive,
    redriveCharges: new RedriveChargesUseCase(prisma, drive, logger),
    expireOrders: new ExpireOrderIntentsUseCase(prisma, new CancelPaymentIntentUseCase(prisma, processors, catalog, seatHolds, logger), logger),
    completeAuthentication: new CompleteAuthenticationUseCase(prisma, sandbox, drive),
    refunds: new RefundPaymentUseCase(prisma, processors, logger),
  };
}
