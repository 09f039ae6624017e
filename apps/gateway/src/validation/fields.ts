import { z } from 'zod';
import { EMAIL_ADDRESS, EMAIL_ADDRESS_MAX_LENGTH, isCurrencyCode } from '@ticketing/contracts';
import { characterCount, isStorableInstant, METADATA_LIMITS } from '@ticketing/fields';

/** Request fields shared by several routes, each with the message a caller sees when it is wrong. */
// Lengths count characters (code points), as the document's minLength and maxLength mean; zod's
// own min and max would count UTF-16 units, refusing an emoji-rich text the document allows.

/**
 * Characters that show nothing: white space, format characters (zero-width space, joiners, direction
 * marks), the other code points Unicode says to render invisibly (Hangul fillers, variation selectors)
 * and the blank braille pattern, U+2800.
 */
const INVISIBLE = /[\s\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/gu;
/** Control characters (U+0000–U+001F, U+007F–U+009F): a terminal or a log reading a name with an escape sequence would obey it. */
const CONTROL = /\p{Cc}/u;
/** Control characters but the tab and line breaks that a longer text may hold. */
const CONTROL_BUT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;

/** A single line of 1 to `max` characters (a name, a reference), trimmed: not only invisible characters, and no control characters. */
export const text = (max: number) =>
  z
    .string()
    .trim()
    .refine((value) => value.replace(INVISIBLE, '') !== '', 'must not be blank')
    .refine((value) => !CONTROL.test(value), 'must not contain control characters (U+0000–U+001F, U+007F–U+009F)')
    .refine((value) => characterCount(value) <= max, `must be at most ${max} characters`)
    .meta({ minLength: 1, maxLength: max });

/** Text of at most `max` characters, kept as sent (a description, a metadata value): line breaks and tabs, but no other control characters. */
export const upTo = (max: number) =>
  z
    .string()
    .refine((value) => !CONTROL_BUT_LINE_BREAKS.test(value), 'must not contain control characters other than tabs and line breaks')
    .refine((value) => characterCount(value) <= max, `must be at most ${max} characters`)
    .meta({ maxLength: max });

/** A key of a map such as metadata: 1 to `max` characters, kept as sent, with no control characters. */
export const mapKey = (max: number) =>
  z
    .string()
    .refine((key) => characterCount(key) >= 1 && characterCount(key) <= max, `must be 1 to ${max} characters`)
    .refine((key) => !CONTROL.test(key), 'must not contain control characters')
    .meta({ minLength: 1, maxLength: max });

/** The client's own keys on a resource, as Stripe limits them: up to 50 keys of 1 to 40 characters, values up to 500. */
export const metadata = z
  .record(mapKey(METADATA_LIMITS.keyMaxLength), upTo(METADATA_LIMITS.valueMaxLength))
  .refine((map) => Object.keys(map).length <= METADATA_LIMITS.maxKeys, `can hold at most ${METADATA_LIMITS.maxKeys} keys`)
  .meta({
    maxProperties: METADATA_LIMITS.maxKeys,
    propertyNames: { minLength: 1, maxLength: METADATA_LIMITS.keyMaxLength },
    example: { channel: 'box-office' },
  });

/** Optional text that PATCH may clear with null. */
export const clearableText = (max: number) => upTo(max).nullable();

export const dateTime = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2027-06-01T19:30:00Z' })
  .refine((value) => isStorableInstant(Date.parse(value)), 'must be a date-time from year 0001 to 9999 in UTC')
  .meta({ example: '2027-07-01T20:00:00Z' });

export const currency = z
  .string()
  .refine(isCurrencyCode, 'must be an ISO 4217 currency code such as EUR')
  .meta({ description: 'ISO 4217 currency code.', example: 'EUR' });

export const wholeNumber = (min: number, max: number) =>
  z.number({ error: `must be a whole number from ${min} to ${max}` }).int(`must be a whole number from ${min} to ${max}`).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);

/** The most a price can be, in minor units. */
const MAX_PRICE = 1_000_000_000_000;
/** The most tickets one order takes. */
export const MAX_ORDER_QUANTITY = 100;

/** A price in minor units of a currency (cents for EUR): never negative. */
export const amount = wholeNumber(0, MAX_PRICE).meta({ description: 'Minor units of the currency, e.g. 4500 for €45.00.', example: 4500 });

/** What an order can cost: up to the highest price for each of the most tickets an order takes. */
export const orderAmount = wholeNumber(0, MAX_PRICE * MAX_ORDER_QUANTITY).meta({ description: 'Minor units of the currency, e.g. 4500 for €45.00.', example: 4500 });

/** An email address as a browser's email field accepts it (libs/contracts EMAIL_ADDRESS). */
export const emailAddress = z.email({ pattern: EMAIL_ADDRESS, error: 'must be an email address' }).max(EMAIL_ADDRESS_MAX_LENGTH);

/** Any id a client names where its type is not fixed (a path segment, a cursor): what the services take. */
export const anyId = z.string().min(1, 'must not be empty').max(255, 'must be an id of at most 255 characters');

export const resourceId = (prefix: string) => anyId.regex(new RegExp(`^${prefix}_[0-9A-Za-z]+$`), `must be an id starting with ${prefix}_`).meta({ example: `${prefix}_01JD3W9ZQ4X8V5K2M7N6P1R0ST` });

/** A waiting-room admission token, as GET /v1/events/{id}/queue?entry_id= gives it to an admitted entry. */
export const admissionToken = z.string().min(1).max(2000);

/**
 * A create body's optional field that also takes null, meaning "not given": a client may send
 * back the null that GET answers for the field unset. (On PATCH, null clears instead.)
 */
export const absentOrNull = <TSchema extends z.ZodType>(schema: TSchema) => schema.nullable().optional().transform((value) => value ?? undefined);

/** A strict PATCH body that must change something. */
export function patchBody<TShape extends z.ZodRawShape>(shape: TShape) {
  return z.strictObject(shape).refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: `Provide at least one of ${Object.keys(shape).join(', ')}.`,
    params: { code: 'parameter_missing' },
  });
}

/** PATCH over proto3, which has no null: absent stays absent, null becomes '' (clear the field). */
export function cleared(value: string | null | undefined): string | undefined {
  return value === null ? '' : value;
}

/** What a body's cross-field rule (superRefine) reports its findings to. */
export type Issues = z.core.$RefinementCtx;

/** Reports a field the rule requires as missing: 400 parameter_missing, naming the field. */
export function missing(ctx: Issues, field: string, message: string): void {
  ctx.addIssue({ code: 'custom', path: [field], message, params: { code: 'parameter_missing' }, input: undefined });
}

/** A discount code as customers type it: matched case-insensitively and stored upper case. */
export const discountCode = z.string().regex(/^[A-Za-z0-9_-]{3,64}$/, 'must be 3 to 64 letters, digits, hyphens or underscores');
