import { ApiError } from '@ticketing/errors';
import { isId } from '@ticketing/ids';
import { assertOrdered, integerInRange, optionalDateTime } from '@ticketing/fields';

/** A condition a discount needs before it applies; a discount's triggers must all hold. */
export type TriggerCondition =
  | { kind: 'min_quantity'; quantity: number }
  | { kind: 'purchase_window'; starts_at: Date | null; ends_at: Date | null }
  | { kind: 'customer_segment'; segment_id: string }
  | { kind: 'tier_bundle'; tier_ids: string[] };

export interface CatalogDiscountTrigger {
  id: string;
  mode: string;
  discount_id: string;
  condition: TriggerCondition;
  created_at: Date;
}

/** A condition as a caller sent it: times still text, nothing checked yet. */
export type TriggerConditionInput =
  | { kind: 'min_quantity'; quantity: number }
  | { kind: 'purchase_window'; starts_at: string; ends_at: string }
  | { kind: 'customer_segment'; segment_id: string }
  | { kind: 'tier_bundle'; tier_ids: string[] };

export const MAX_TRIGGER_QUANTITY = 10_000;
export const MIN_BUNDLE_TIERS = 2;
export const MAX_BUNDLE_TIERS = 20;

function validBundle(tierIds: readonly string[]): string[] {
  if (tierIds.length < MIN_BUNDLE_TIERS || tierIds.length > MAX_BUNDLE_TIERS) {
    throw new ApiError('parameter_invalid', `tier_ids must list ${MIN_BUNDLE_TIERS} to ${MAX_BUNDLE_TIERS} tiers.`, { param: 'tier_ids' });
  }
  tierIds.forEach((id, index) => {
    if (id === '' || tierIds.indexOf(id) !== index) {
      throw new ApiError('parameter_invalid', `tier_ids[${index}] must be a tier id listed once.`, { param: `tier_ids[${index}]` });
    }
  });
  return [...tierIds];
}

export function validTriggerCondition(input: TriggerConditionInput | undefined): TriggerCondition {
  if (input === undefined) {
    throw new ApiError('parameter_missing', 'Give the trigger kind and its condition.', { param: 'kind' });
  }
  switch (input.kind) {
    case 'min_quantity':
      return { kind: 'min_quantity', quantity: integerInRange(input.quantity, 'quantity', 1, MAX_TRIGGER_QUANTITY) };
    case 'purchase_window': {
      const startsAt = optionalDateTime(input.starts_at, 'starts_at');
      const endsAt = optionalDateTime(input.ends_at, 'ends_at');
      if (startsAt === null && endsAt === null) {
        throw new ApiError('parameter_missing', 'A purchase window needs starts_at, ends_at or both.', { param: 'ends_at' });
      }
      assertOrdered(startsAt, endsAt, 'ends_at', 'starts_at');
      return { kind: 'purchase_window', starts_at: startsAt, ends_at: endsAt };
    }
    case 'customer_segment':
      if (!isId(input.segment_id, 'seg')) {
        throw new ApiError('parameter_invalid', 'segment_id must be a segment id (seg_…).', { param: 'segment_id' });
      }
      return { kind: 'customer_segment', segment_id: input.segment_id };
    case 'tier_bundle':
      return { kind: 'tier_bundle', tier_ids: validBundle(input.tier_ids) };
  }
}

/** What the triggers look at in an order. */
export interface TriggerFacts {
  /** Tickets the discount applies to; others do not make up a minimum quantity. */
  qualifyingQuantity: number;
  /** Every tier in the order, for bundles. */
  tierIds: ReadonlySet<string>;
  segmentIds: ReadonlySet<string>;
  at: Date;
}

/** Why the condition does not hold for the order, or null when it holds. */
export function unmetCondition(condition: TriggerCondition, facts: TriggerFacts): string | null {
  switch (condition.kind) {
    case 'min_quantity':
      return facts.qualifyingQuantity >= condition.quantity ? null : `it needs at least ${condition.quantity} eligible tickets in the order`;
    case 'purchase_window':
      if (condition.starts_at && facts.at < condition.starts_at) return `it applies only to purchases from ${condition.starts_at.toISOString()}`;
      if (condition.ends_at && facts.at >= condition.ends_at) return `it applied only to purchases before ${condition.ends_at.toISOString()}`;
      return null;
    case 'customer_segment':
      return facts.segmentIds.has(condition.segment_id) ? null : `it is only for customers in segment ${condition.segment_id}`;
    case 'tier_bundle':
      return condition.tier_ids.every((tierId) => facts.tierIds.has(tierId)) ? null : `it needs every one of the tiers ${condition.tier_ids.join(', ')} in the order`;
  }
}
