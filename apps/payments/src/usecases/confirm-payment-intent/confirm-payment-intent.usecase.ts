import type { InternalClaims, Tenant } from '@ticketing/auth';
import { keyHashOf, keyReused, type IdempotentWrite } from '@ticketing/db';
import { ApiError } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import type { PrismaClient } from '../../db';
import { methodToCharge, validPaymentMethod, type PaymentIntent } from '../../domain/payment-intent';
import type { Processors } from '../../processors/payment-processor';
import { ChargeRepository, type Charge, type ConfirmationKey } from '../../repositories/charge.repository';
import { PaymentIntentRepository } from '../../repositories/payment-intent.repository';
import type { DriveChargeUseCase } from '../drive-charge/drive-charge.usecase';

export interface ConfirmPaymentIntentCommand {
  id: string;
  payment_method: string;
}

/**
 * Charges the intent (decision 0061). First, under the intent's lock, a charge is opened and the
 * intent set processing: of concurrent confirmations one opens it and the others are refused, and
 * the database holds at most one open charge of an intent. Then the processor is asked under the
 * charge's id, and its outcome settled. A confirmation cut off after opening its charge leaves the
 * intent processing; the re-driver asks the processor again (which answers the same charge) and
 * settles it, so nothing is charged twice or lost. A retry under the same Idempotency-Key finds
 * its charge and answers the intent as it now is.
 */
export class ConfirmPaymentIntentUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly processors: Processors,
    private readonly drive: DriveChargeUseCase,
    private readonly currentCall: () => IdempotentWrite | undefined,
  ) {}

  async execute(claims: InternalClaims, tenant: Tenant, command: ConfirmPaymentIntentCommand): Promise<PaymentIntent> {
    const given = validPaymentMethod(command.payment_method);
    const call = this.currentCall();
    const key = call ? { keyHash: keyHashOf(call), fingerprint: call.fingerprint } : null;
    const begun = await this.open(tenant, command.id, given, key);
    if ('answered' in begun) {
      call?.markReplayed();
      return begun.answered;
    }
    return this.drive.execute(begun.charge, claims, begun.intent);
  }

  /** The charge this confirmation opens, or the intent as it is when an earlier call under its key opened one. */
  private open(tenant: Tenant, id: string, given: string | null, key: ConfirmationKey | null): Promise<{ charge: Charge; intent: PaymentIntent } | { answered: PaymentIntent }> {
    return this.prisma.$transaction(async (tx) => {
      const intents = new PaymentIntentRepository(tx);
      const charges = new ChargeRepository(tx);
      const intent = await intents.lockById(tenant, id);
      if (!intent) throw ApiError.resourceMissing('payment_intent', id);
      const earlier = key && (await charges.findByKey(intent.id, key.keyHash));
      if (earlier) {
        if (earlier.idempotency_fingerprint !== key.fingerprint) throw keyReused();
        return { answered: intent };
      }
      const method = methodToCharge(intent, given, new Date());
      this.processors.of(tenant.mode).assertChargeable(method);
      const charge = await charges.open(tenant, newId('ch'), intent, method, key);
      await intents.change(tenant, intent.id, { status: 'processing', payment_method: method, last_payment_error: null });
      return { charge, intent };
    });
  }
}
