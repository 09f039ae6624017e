import { z } from 'zod';
import type { catalogV1 } from '@ticketing/contracts';
import { nullIfEmpty, nullIfZero } from './fields';
import { resourceFields, timestamp } from './resource.schema';

const DISCOUNT_ID_EXAMPLE = 'dsc_01JD3WB5K8R2T4V6X8Z0A2C4E6';

export const appliesToSchema = z
  .object({
    event_ids: z.array(z.string()).meta({ description: 'Events whose every tier the discount applies to.', example: ['evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST'] }),
    tier_ids: z.array(z.string()).meta({ description: 'Further single tiers it applies to.', example: [] }),
  })
  .meta({
    id: 'DiscountAppliesTo',
    description: 'What the discount applies to: a ticket qualifies through its event or its tier. Both lists empty: every event and tier.',
  });

export const discountResource = z
  .object({
    ...resourceFields('discount'),
    code: z.string().nullable().meta({
      description: 'What a customer enters, matched case-insensitively (stored upper case). Null for an automatic discount, which only its triggers apply.',
      example: 'SUMMER25',
    }),
    percent_off: z.number().int().nullable().meta({ description: '1 to 100; null for a fixed-amount discount.', example: 25 }),
    amount_off: z.number().int().nullable().meta({ description: 'Minor units of `currency`, taken once per order; null for a percent discount.', example: null }),
    currency: z.string().nullable().meta({ description: 'ISO 4217 currency of `amount_off`; null for a percent discount.', example: null }),
    applies_to: appliesToSchema,
    valid_from: timestamp.nullable().meta({ description: 'Null: valid from creation.' }),
    valid_until: timestamp.nullable().meta({ description: 'Null: no end. Exclusive.', example: '2027-09-01T00:00:00.000Z' }),
    max_redemptions: z.number().int().nullable().meta({ description: 'Paid orders it may ever be used for; null: unlimited.', example: 500 }),
    max_redemptions_per_customer: z.number().int().nullable().meta({ description: 'Paid orders per customer; null: unlimited.', example: 1 }),
    times_redeemed: z.number().int().meta({ description: 'Paid orders that used it. A refund keeps its order counted, so a customer who used their one redemption does not get it back by refunding. Read only.', example: 42 }),
    active: z.boolean().meta({ description: 'False once deactivated: it then applies to no new order.' }),
    updated_at: timestamp,
  })
  .meta({
    id: 'Discount',
    description: 'A percentage or fixed amount off. Discounts never stack: an order gets the single best applicable one.',
    example: {
      id: DISCOUNT_ID_EXAMPLE,
      object: 'discount',
      livemode: false,
      code: 'SUMMER25',
      percent_off: 25,
      amount_off: null,
      currency: null,
      applies_to: { event_ids: ['evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST'], tier_ids: [] },
      valid_from: null,
      valid_until: '2027-09-01T00:00:00.000Z',
      max_redemptions: 500,
      max_redemptions_per_customer: 1,
      times_redeemed: 42,
      active: true,
      created_at: '2027-05-01T09:00:00.000Z',
      updated_at: '2027-05-01T09:00:00.000Z',
    },
  });

export function presentDiscount(discount: catalogV1.Discount): z.output<typeof discountResource> {
  return {
    id: discount.id,
    object: 'discount',
    livemode: discount.livemode,
    code: nullIfEmpty(discount.code),
    percent_off: nullIfZero(discount.percent_off),
    amount_off: nullIfZero(discount.amount_off),
    currency: nullIfEmpty(discount.currency),
    applies_to: { event_ids: discount.applies_to?.event_ids ?? [], tier_ids: discount.applies_to?.tier_ids ?? [] },
    valid_from: nullIfEmpty(discount.valid_from),
    valid_until: nullIfEmpty(discount.valid_until),
    max_redemptions: nullIfZero(discount.max_redemptions),
    max_redemptions_per_customer: nullIfZero(discount.max_redemptions_per_customer),
    times_redeemed: discount.times_redeemed,
    active: discount.active,
    created_at: discount.created_at,
    updated_at: discount.updated_at,
  };
}

const triggerFields = {
  ...resourceFields('discount_trigger'),
  discount_id: z.string().meta({ example: DISCOUNT_ID_EXAMPLE }),
};

export const discountTriggerResource = z
  .discriminatedUnion('kind', [
    z
      .object({
        ...triggerFields,
        kind: z.literal('min_quantity'),
        quantity: z.number().int().meta({ description: 'Tickets the discount applies to that the order must contain.', example: 4 }),
      })
      .meta({ id: 'MinQuantityTrigger' }),
    z
      .object({
        ...triggerFields,
        kind: z.literal('purchase_window'),
        starts_at: timestamp.nullable().meta({ description: 'Orders from this instant on; null: no start.' }),
        ends_at: timestamp.nullable().meta({ description: 'Orders before this instant (exclusive); null: no end.', example: '2027-06-01T00:00:00.000Z' }),
      })
      .meta({ id: 'PurchaseWindowTrigger' }),
    z
      .object({
        ...triggerFields,
        kind: z.literal('customer_segment'),
        segment_id: z.string().meta({ description: 'The customer must be in this segment.', example: 'seg_01JD3WCQ0N5P7R9T1V3X5Z7B9D' }),
      })
      .meta({ id: 'CustomerSegmentTrigger' }),
    z
      .object({
        ...triggerFields,
        kind: z.literal('tier_bundle'),
        tier_ids: z.array(z.string()).meta({ description: 'The order must include every one of these tiers.', example: ['tier_01JD3WD1A2B3C4D5E6F7G8H9J0', 'tier_01JD3WD2K3M4N5P6Q7R8S9T0V1'] }),
      })
      .meta({ id: 'TierBundleTrigger' }),
  ])
  .meta({
    id: 'DiscountTrigger',
    // Every variant is an object; saying so up front lets generators type the union before picking a variant.
    type: 'object',
    description:
      'A condition of its discount, by `kind`. A discount without a code applies automatically when all its triggers hold (and never without any); a discount with a code also needs all its triggers to hold.',
    example: { id: 'dtr_01JD3WE7G9J1L3N5Q7S9U1W3Y5', object: 'discount_trigger', livemode: false, discount_id: DISCOUNT_ID_EXAMPLE, kind: 'min_quantity', quantity: 4, created_at: '2027-05-01T09:05:00.000Z' },
  });

type TriggerCondition = NonNullable<catalogV1.DiscountTrigger['condition']>;

function conditionFields(condition: TriggerCondition) {
  switch (condition.$case) {
    case 'min_quantity':
      return { kind: 'min_quantity' as const, quantity: condition.value.quantity };
    case 'purchase_window':
      return { kind: 'purchase_window' as const, starts_at: nullIfEmpty(condition.value.starts_at), ends_at: nullIfEmpty(condition.value.ends_at) };
    case 'customer_segment':
      return { kind: 'customer_segment' as const, segment_id: condition.value.segment_id };
    case 'tier_bundle':
      return { kind: 'tier_bundle' as const, tier_ids: condition.value.tier_ids };
  }
}

export function presentDiscountTrigger(trigger: catalogV1.DiscountTrigger): z.output<typeof discountTriggerResource> {
  if (!trigger.condition) throw new Error(`catalog answered discount trigger ${trigger.id} without its condition`);
  return {
    id: trigger.id,
    object: 'discount_trigger',
    livemode: trigger.livemode,
    discount_id: trigger.discount_id,
    created_at: trigger.created_at,
    ...conditionFields(trigger.condition),
  };
}
