import { z } from 'zod';
import type { catalogV1 } from '@ticketing/contracts';
import { toListEnvelope } from '@ticketing/pagination';
import { discountResource, discountTriggerResource, presentDiscount, presentDiscountTrigger } from '../presenters/discount.presenter';
import { deletedResource, listOf } from '../presenters/resource.schema';
import { absentOrNull, cleared, currency, dateTime, discountCode, missing, patchBody, resourceId, wholeNumber, type Issues } from '../validation/fields';
import { listQuery, pageRequest } from '../validation/list-query';
import { uniqueItems } from '../validation/unique-items';
import { defineRoute, secretKey } from './route';

const TAG = 'Discounts';
const access = secretKey('events:write');

const code = discountCode.meta({ description: 'What a customer enters at checkout; matched case-insensitively and stored upper case. Unique per account and mode.', example: 'SUMMER25' });
const redemptionLimit = wholeNumber(1, 1_000_000_000);
const idList = (prefix: string) => uniqueItems(resourceId(prefix)).max(100, 'takes at most 100 ids');

const appliesTo = z
  .strictObject({
    event_ids: idList('evt').optional().meta({ description: 'Events whose every tier the discount applies to.', example: ['evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST'] }),
    tier_ids: idList('tier').optional().meta({ description: 'Further single tiers it applies to.', example: [] }),
  })
  .meta({ description: 'A ticket qualifies through its event or its tier. Left out, or both lists empty: everything. On update it replaces both lists.' });

function windowIssue(ctx: Issues, from: string | null | undefined, until: string | null | undefined): void {
  if (from && until && Date.parse(until) <= Date.parse(from)) {
    ctx.addIssue({ code: 'custom', path: ['valid_until'], message: 'must be after valid_from', input: until });
  }
}


const createDiscountBody = z
  .strictObject({
    code: absentOrNull(code).meta({ description: 'Leave out for an automatic discount, applied only through its triggers.' }),
    percent_off: absentOrNull(wholeNumber(1, 100)).meta({ description: 'Percent off each qualifying ticket, rounded down per line. Give this or amount_off.', example: 25 }),
    amount_off: absentOrNull(wholeNumber(1, 1_000_000_000_000)).meta({ description: 'Minor units off the order, once, spread over the qualifying tickets and capped at their price. Needs currency.', example: 500 }),
    currency: absentOrNull(currency).meta({ description: 'ISO 4217 code of amount_off; must be the currency of what the discount applies to.' }),
    applies_to: appliesTo.optional(),
    valid_from: absentOrNull(dateTime).meta({ description: 'Left out or null: valid at once.' }),
    valid_until: absentOrNull(dateTime).meta({ description: 'Exclusive; after valid_from. Left out or null: no end.' }),
    max_redemptions: absentOrNull(redemptionLimit).meta({ description: 'Paid orders it may ever be used for. Null or left out: unlimited.', example: 500 }),
    max_redemptions_per_customer: absentOrNull(redemptionLimit).meta({ description: 'Paid orders per customer. Null or left out: unlimited.', example: 1 }),
  })
  .superRefine((body, ctx) => {
    if (body.percent_off === undefined && body.amount_off === undefined) missing(ctx, 'percent_off', 'Give percent_off or amount_off');
    else if (body.percent_off !== undefined && body.amount_off !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['amount_off'], message: 'give percent_off or amount_off, not both', input: body.amount_off });
    } else if (body.amount_off !== undefined && body.currency === undefined) missing(ctx, 'currency', 'currency is required with amount_off');
    else if (body.percent_off !== undefined && body.currency !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'goes only with amount_off; a percent discount applies in any currency', input: body.currency });
    }
    windowIssue(ctx, body.valid_from, body.valid_until);
  })
  .meta({ example: { code: 'SUMMER25', percent_off: 25, applies_to: { event_ids: ['evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST'] }, valid_until: '2027-09-01T00:00:00Z', max_redemptions: 500 } });

const updateDiscountBody = patchBody({
  code: code.nullable().optional().meta({ description: 'Null removes the code: the discount becomes automatic.' }),
  applies_to: appliesTo.optional(),
  valid_from: dateTime.nullable().optional().meta({ description: 'Null: valid from creation.' }),
  valid_until: dateTime.nullable().optional().meta({ description: 'Null: no end.' }),
  max_redemptions: redemptionLimit
    .nullable()
    .optional()
    .meta({ description: 'Never below times_redeemed at that instant. Null: unlimited.', example: 1000 }),
  max_redemptions_per_customer: redemptionLimit.nullable().optional().meta({ description: 'Null: unlimited.' }),
  active: z.boolean().optional().meta({ description: 'Reactivates (true) or deactivates (false) the discount.' }),
})
  .superRefine((body, ctx) => windowIssue(ctx, body.valid_from, body.valid_until))
  .meta({
    description: 'Only the fields sent change. The value (percent_off, amount_off, currency) is fixed at creation: create a new discount instead.',
    example: { valid_until: '2027-10-01T00:00:00Z', max_redemptions: 1000 },
  });

const TRIGGER_FIELDS = {
  min_quantity: ['quantity'],
  purchase_window: ['starts_at', 'ends_at'],
  customer_segment: ['segment_id'],
  tier_bundle: ['tier_ids'],
} as const;
type TriggerKind = keyof typeof TRIGGER_FIELDS;
const TRIGGER_KINDS = Object.keys(TRIGGER_FIELDS) as [TriggerKind, ...TriggerKind[]];
const CONDITION_FIELDS = Object.values(TRIGGER_FIELDS).flat();

const createTriggerBody = z
  .strictObject({
    kind: z.enum(TRIGGER_KINDS, { error: `must be one of ${TRIGGER_KINDS.join(', ')}` }).meta({
      description: 'Which condition; only the fields of that kind may be sent.',
      example: 'min_quantity',
    }),
    quantity: wholeNumber(1, 10_000).optional().meta({ description: 'min_quantity: tickets the discount applies to that the order must contain.', example: 4 }),
    starts_at: dateTime.optional().meta({ description: 'purchase_window: orders from this instant on.' }),
    ends_at: dateTime.optional().meta({ description: 'purchase_window: orders before this instant (an early-bird deadline). Give starts_at, ends_at or both.' }),
    segment_id: resourceId('seg').optional().meta({ description: 'customer_segment: the customer must be in this segment.' }),
    tier_ids: uniqueItems(resourceId('tier'))
      .min(2, 'must list 2 to 20 tiers')
      .max(20, 'must list 2 to 20 tiers')
      .optional()
      .meta({ description: 'tier_bundle: the order must include every one of these tiers.' }),
  })
  .superRefine((body, ctx) => {
    const own: readonly string[] = TRIGGER_FIELDS[body.kind];
    for (const field of CONDITION_FIELDS) {
      if (body[field] !== undefined && !own.includes(field)) {
        ctx.addIssue({ code: 'custom', path: [field], message: `is not a field of a ${body.kind} trigger`, input: body[field] });
      }
    }
    if (body.kind === 'purchase_window') {
      if (body.starts_at === undefined && body.ends_at === undefined) missing(ctx, 'ends_at', 'A purchase_window trigger needs starts_at, ends_at or both');
      if (body.starts_at && body.ends_at && Date.parse(body.ends_at) <= Date.parse(body.starts_at)) {
        ctx.addIssue({ code: 'custom', path: ['ends_at'], message: 'must be after starts_at', input: body.ends_at });
      }
    } else if (body[own[0] as keyof typeof body] === undefined) {
      missing(ctx, own[0]!, `Missing required parameter: ${own[0]}`);
    }
  })
  .meta({ example: { kind: 'purchase_window', ends_at: '2027-06-01T00:00:00Z' } });

type CreateTriggerBody = z.output<typeof createTriggerBody>;

/** The refinement above guarantees the kind's fields; the catalog checks them again. */
function triggerCondition(body: CreateTriggerBody): catalogV1.CreateDiscountTriggerRequest['condition'] {
  switch (body.kind) {
    case 'min_quantity':
      return { $case: 'min_quantity', value: { quantity: body.quantity ?? 0 } };
    case 'purchase_window':
      return { $case: 'purchase_window', value: { starts_at: body.starts_at ?? '', ends_at: body.ends_at ?? '' } };
    case 'customer_segment':
      return { $case: 'customer_segment', value: { segment_id: body.segment_id ?? '' } };
    case 'tier_bundle':
      return { $case: 'tier_bundle', value: { tier_ids: body.tier_ids ?? [] } };
  }
}

const appliesToRequest = (value: z.output<typeof appliesTo> | undefined): catalogV1.DiscountAppliesTo | undefined =>
  value && { event_ids: value.event_ids ?? [], tier_ids: value.tier_ids ?? [] };

/** proto3 has no null: 0 asks an update for "unlimited". */
const limit = (value: number | null | undefined) => (value === null ? 0 : value);

export const discountsRoutes = [
  defineRoute({
    operationId: 'listDiscounts',
    method: 'get',
    path: '/v1/discounts',
    summary: 'List discounts, newest first',
    tag: TAG,
    access,
    query: listQuery,
    response: listOf(discountResource),
    handler: async ({ query }, { services }) => toListEnvelope(await services.discounts.listDiscounts({ page: pageRequest(query) }), presentDiscount),
  }),
  defineRoute({
    operationId: 'createDiscount',
    method: 'post',
    path: '/v1/discounts',
    summary: 'Create a discount',
    tag: TAG,
    access,
    errors: ['resource_missing', 'discount_code_taken', 'redemption_limit_below_redeemed'],
    body: createDiscountBody,
    response: discountResource,
    handler: async ({ body }, { services }) =>
      presentDiscount(
        await services.discounts.createDiscount({
          code: body.code ?? '',
          percent_off: body.percent_off,
          amount_off: body.amount_off,
          currency: body.currency ?? '',
          applies_to: appliesToRequest(body.applies_to),
          valid_from: body.valid_from ?? '',
          valid_until: body.valid_until ?? '',
          max_redemptions: body.max_redemptions,
          max_redemptions_per_customer: body.max_redemptions_per_customer,
        }),
      ),
  }),
  defineRoute({
    operationId: 'getDiscount',
    method: 'get',
    path: '/v1/discounts/{id}',
    summary: 'Retrieve a discount',
    tag: TAG,
    access,
    response: discountResource,
    handler: async ({ params }, { services }) => presentDiscount(await services.discounts.getDiscount({ id: params.id })),
    catalogRead: ({ params }) => `discount:${params.id}`,
  }),
  defineRoute({
    operationId: 'updateDiscount',
    method: 'patch',
    path: '/v1/discounts/{id}',
    summary: 'Update a discount; only the fields sent change, null clears',
    tag: TAG,
    access,
    errors: ['resource_missing', 'discount_code_taken', 'redemption_limit_below_redeemed'],
    body: updateDiscountBody,
    response: discountResource,
    handler: async ({ params, body }, { services }) =>
      presentDiscount(
        await services.discounts.updateDiscount({
          id: params.id,
          code: cleared(body.code),
          applies_to: appliesToRequest(body.applies_to),
          valid_from: cleared(body.valid_from),
          valid_until: cleared(body.valid_until),
          max_redemptions: limit(body.max_redemptions),
          max_redemptions_per_customer: limit(body.max_redemptions_per_customer),
          active: body.active,
        }),
      ),
  }),
  defineRoute({
    operationId: 'deactivateDiscount',
    method: 'post',
    path: '/v1/discounts/{id}/deactivate',
    summary: 'Deactivate a discount: it applies to no new order (redemptions already counted stay)',
    tag: TAG,
    access,
    response: discountResource,
    handler: async ({ params }, { services }) => presentDiscount(await services.discounts.deactivateDiscount({ id: params.id })),
  }),
  defineRoute({
    operationId: 'createDiscountTrigger',
    method: 'post',
    path: '/v1/discounts/{id}/triggers',
    summary: 'Add a trigger: a condition under which the discount applies without a code',
    tag: TAG,
    access,
    errors: ['resource_missing'],
    body: createTriggerBody,
    response: discountTriggerResource,
    handler: async ({ params, body }, { services }) =>
      presentDiscountTrigger(await services.discounts.createDiscountTrigger({ discount_id: params.id, condition: triggerCondition(body) })),
  }),
  defineRoute({
    operationId: 'listDiscountTriggers',
    method: 'get',
    path: '/v1/discounts/{id}/triggers',
    summary: "List a discount's triggers, newest first",
    tag: TAG,
    access,
    query: listQuery,
    response: listOf(discountTriggerResource),
    handler: async ({ params, query }, { services }) =>
      toListEnvelope(await services.discounts.listDiscountTriggers({ discount_id: params.id, page: pageRequest(query) }), presentDiscountTrigger),
  }),
  defineRoute({
    operationId: 'deleteDiscountTrigger',
    method: 'delete',
    path: '/v1/discounts/{id}/triggers/{triggerId}',
    summary: 'Delete a discount trigger',
    tag: TAG,
    access,
    response: deletedResource('discount_trigger').meta({ example: { id: 'dtr_01JD3WE7G9J1L3N5Q7S9U1W3Y5', object: 'discount_trigger', deleted: true } }),
    handler: async ({ params }, { services }) => {
      const deleted = await services.discounts.deleteDiscountTrigger({ discount_id: params.id, id: params.triggerId });
      return { id: deleted.id, object: 'discount_trigger' as const, deleted: true as const };
    },
  }),
];
