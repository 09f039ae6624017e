import { ApiError } from '@ticketing/errors';
import { characterCount } from './fields';

/** The client's own keys on a resource (an issuance, a webhook endpoint), Stripe's limits. */
export const METADATA_LIMITS = { maxKeys: 50, keyMaxLength: 40, valueMaxLength: 500 } as const;

/** Metadata as a service stores it: at most 50 keys of 1 to 40 characters, values up to 500. */
export function validMetadata(metadata: Record<string, string>): Record<string, string> {
  const { maxKeys, keyMaxLength, valueMaxLength } = METADATA_LIMITS;
  const entries = Object.entries(metadata);
  if (entries.length > maxKeys) throw new ApiError('parameter_invalid', `metadata can hold at most ${maxKeys} keys.`, { param: 'metadata' });
  for (const [key, value] of entries) {
    if (key.length === 0 || characterCount(key) > keyMaxLength || characterCount(value) > valueMaxLength) {
      throw new ApiError('parameter_invalid', `metadata keys must be 1 to ${keyMaxLength} characters and values at most ${valueMaxLength}.`, {
        param: `metadata[${key}]`,
      });
    }
  }
  return Object.fromEntries(entries);
}
