import { claimsForTenant, type Tenant } from '@ticketing/auth';
import type { PaymentIntentFacts } from '@ticketing/contracts';
import { isUniqueViolation } from '@ticketing/db';
import type { PrismaClient } from '../../db';
import { IssuanceRepository } from '../../repositories/issuance.repository';
import { SeatHoldRepository } from '../../repositories/seat-hold.repository';
import type { DriveIssuanceUseCase } from '../drive-issuance/drive-issuance.usecase';

type PaidOrder = PaymentIntentFacts & { order: NonNullable<PaymentIntentFacts['order']> };

/**
 * Issues the tickets of an order intent that succeeded (decision 0062), a line at a time: each
 * line is an issuance under the id payments held its units with in catalog, paid by the intent,
 * recorded as pending (the buyer found by email or created) and driven like any issuance. Payments
 * sold the units before the intent succeeded, so the commit finds them sold; payments counted the
 * discount. A line already recorded (the message came again) is driven, never recorded twice,
 * so the tickets are issued exactly once. Answers how many tickets the order has.
 */
export class IssuePaidOrderUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly drive: DriveIssuanceUseCase,
  ) {}

  async execute(tenant: Tenant, intent: PaidOrder): Promise<number> {
    const claims = claimsForTenant(tenant);
    const { order } = intent;
    let tickets = 0;
    for (const line of order.lines) {
      await this.record(tenant, intent, line);
      tickets += (await this.drive.execute(claims, tenant, line.issuance_id)).tickets.length;
    }
    return tickets;
  }

  private async record(tenant: Tenant, intent: PaidOrder, line: PaidOrder['order']['lines'][number]): Promise<void> {
    const issuances = new IssuanceRepository(this.prisma);
    if (await issuances.find(tenant, line.issuance_id)) return;
    const payment = { type: 'payment_intent' as const, reference: intent.payment_intent_id, amount: line.amount };
    const issuance = {
      id: line.issuance_id,
      event_id: intent.order.event_id,
      tier_id: line.tier_id,
      kind: 'sale' as const,
      quantity: line.quantity,
      payment,
      amount: line.amount,
      currency: intent.currency,
      comp_reason: null,
      seat_hold_id: line.seat_hold_id,
      admission_entry_id: null,
      discount_id: intent.order.discount_id,
      metadata: intent.metadata,
    };
    try {
      // A seated line's hold was taken for its issuance when the order was made; recorded, the issuance is bound to it.
      await this.prisma.$transaction(async (tx) => {
        await new IssuanceRepository(tx).createPending(tenant, issuance, { details: intent.order.customer }, undefined, null);
        if (line.seat_hold_id && !(await new SeatHoldRepository(tx).bindTaken(tenant, line.seat_hold_id, line.issuance_id))) {
          throw new Error(`seat hold ${line.seat_hold_id} of paid issuance ${line.issuance_id} is no longer taken for it`);
        }
      });
    } catch (error) {
      // Recorded meanwhile by another delivery of the same message: driven below all the same.
      if (!isUniqueViolation(error)) throw error;
    }
  }
}
