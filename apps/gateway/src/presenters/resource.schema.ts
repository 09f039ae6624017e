import { z } from 'zod';

/**
 * Building blocks of response schemas, so every resource has the same envelope: `id`,
 * `object`, `livemode`, `created_at`, ISO 8601 timestamps named `*_at`, null for unset fields.
 */
export const timestamp = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 UTC date-time.', example: '2027-07-01T20:00:00.000Z' });

export function resourceFields<TObject extends string>(object: TObject) {
  return {
    id: z.string(),
    object: z.literal(object),
    livemode: z.boolean().meta({ description: 'true in live mode, false in test mode.' }),
    created_at: timestamp,
  };
}

export function listOf<TItem extends z.ZodType>(item: TItem) {
  const itemExample = z.globalRegistry.get(item)?.example;
  return z
    .object({
      object: z.literal('list'),
      data: z.array(item).meta({ description: 'Items on this page, newest first.' }),
      has_more: z.boolean().meta({ description: 'true if more items exist after this page.' }),
    })
    .meta(itemExample === undefined ? {} : { example: { object: 'list', data: [itemExample], has_more: false } });
}

const NOT_YET_DOCUMENTED = 'Fields beyond the common ones are documented when the operation ships.';

/** The response of an operation that is routed but not built yet: only the shared fields are fixed. */
export function plannedResource(object: string) {
  return z.looseObject(resourceFields(object)).meta({ description: NOT_YET_DOCUMENTED });
}

/** A planned response that is not an identifiable resource (a report, a balance, a scan result). */
export function plannedObject(object: string) {
  return z.looseObject({ object: z.literal(object), livemode: z.boolean() }).meta({ description: NOT_YET_DOCUMENTED });
}

/** What deleting a resource answers with. */
export function deletedResource(object: string) {
  return z.object({ id: z.string(), object: z.literal(object), deleted: z.literal(true) });
}
