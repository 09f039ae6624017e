import type { Mode, Tenant } from '@ticketing/auth';
import type { PaymentsDb } from '../db';
import type { PaymentIntent } from '../domain/payment-intent';

export type ChargeStatus = 'processing' | 'requires_action' | 'succeeded' | 'failed';

export interface Charge {
  id: string;
  account_id: string;
  mode: Mode;
  payment_intent_id: string;
  amount: number;
  currency: string;
  payment_method: string;
  status: ChargeStatus;
  idempotency_fingerprint: string | null;
  created_at: Date;
}

/** The confirmation's Idempotency-Key, hashed, and its request's fingerprint. */
export interface ConfirmationKey {
  keyHash: string;
  fingerprint: string;
}

const chargeColumns = {
  id: true,
  account_id: true,
  mode: true,
  payment_intent_id: true,
  amount: true,
  currency: true,
  payment_method: true,
  status: true,
  idempotency_fingerprint: true,
  created_at: true,
} as const;

const toCharge = (row: { [K in keyof typeof chargeColumns]: unknown }): Charge =>
  ({ ...row, amount: Number(row.amount) }) as Charge;

/** Charges: one per confirmation, asked of the processor under its own id. */
export class ChargeRepository {
  constructor(private readonly db: PaymentsDb) {}

  /** A charge of the intent's amount, processing; the database refuses a second open charge of one intent. */
  async open(tenant: Tenant, id: string, intent: PaymentIntent, paymentMethod: string, key: ConfirmationKey | null): Promise<Charge> {
    const row = await this.db.charge.create({
      data: {
        id,
        account_id: tenant.accountId,
        mode: tenant.mode,
        payment_intent_id: intent.id,
        amount: intent.amount,
        currency: intent.currency,
        payment_method: paymentMethod,
        status: 'processing',
        idempotency_key_hash: key?.keyHash ?? null,
        idempotency_fingerprint: key?.fingerprint ?? null,
      },
      select: chargeColumns,
    });
    return toCharge(row);
  }

  /** The charge an earlier confirmation of the intent made under this Idempotency-Key, if one did. */
  async findByKey(intentId: string, keyHash: string): Promise<Charge | null> {
    const row = await this.db.charge.findFirst({ where: { payment_intent_id: intentId, idempotency_key_hash: keyHash }, select: chargeColumns });
    return row && toCharge(row);
  }

  /** The intent's charge in flight (processing, or awaiting the buyer), if it has one. */
  async openOf(intentId: string): Promise<Charge | null> {
    const row = await this.db.charge.findFirst({ where: { payment_intent_id: intentId, status: { in: ['processing', 'requires_action'] } }, select: chargeColumns });
    return row && toCharge(row);
  }

  async findById(id: string): Promise<Charge | null> {
    const row = await this.db.charge.findUnique({ where: { id }, select: chargeColumns });
    return row && toCharge(row);
  }

  /**
   * Moves the charge from one of `from` to `to`; false when it was no longer in one of them (another
   * process settled it first), so each outcome is applied once.
   */
  async settle(id: string, from: readonly ChargeStatus[], to: ChargeStatus, failure?: { code: string; message: string }): Promise<boolean> {
    const { count } = await this.db.charge.updateMany({
      where: { id, status: { in: [...from] } },
      data: { status: to, failure_code: failure?.code ?? null, failure_message: failure?.message ?? null, ...(to === 'processing' || to === 'requires_action' ? {} : { settled_at: new Date() }) },
    });
    return count === 1;
  }

  /** Charges still processing since before `before`, oldest first: their confirmation was cut off, or the processor has not decided. */
  async processingSince(before: Date, limit: number): Promise<Charge[]> {
    const rows = await this.db.charge.findMany({ where: { status: 'processing', created_at: { lt: before } }, orderBy: { created_at: 'asc' }, take: limit, select: chargeColumns });
    return rows.map(toCharge);
  }
}
