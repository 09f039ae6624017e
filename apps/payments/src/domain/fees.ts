/** What the platform charges for processing a payment (decision 0061): a share of it plus a fixed part. */
export interface FeeSchedule {
  /** Basis points of the amount (290 = 2.9 %). */
  percentBps: number;
  /** Minor units of the payment's currency, added to every payment. */
  fixed: number;
}

/** The fee of a payment of `amount` minor units: rounded half up, and never more than the payment. */
export function processingFee(amount: number, schedule: FeeSchedule): number {
  const share = Math.floor((amount * schedule.percentBps + 5_000) / 10_000);
  return Math.min(amount, share + schedule.fixed);
}
