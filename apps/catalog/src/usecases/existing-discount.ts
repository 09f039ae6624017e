import type { Tenant } from '@ticketing/auth';
import { isUniqueViolation } from '@ticketing/db';
import { ApiError } from '@ticketing/errors';
import type { CatalogDiscount } from '../domain/discount';
import type { DiscountRepository } from '../repositories/discount.repository';

/** The tenant's discount; another mode's or account's is as missing as one never created. */
export async function existingDiscount(discounts: DiscountRepository, tenant: Tenant, id: string): Promise<CatalogDiscount> {
  const discount = await discounts.findById(tenant, id);
  if (!discount) throw ApiError.resourceMissing('discount', id);
  return discount;
}

/** Runs a write that sets a code; the unique index, not a prior lookup, decides who gets a code. */
export async function withUniqueCode<T>(code: string | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (code && isUniqueViolation(error)) {
      throw new ApiError('discount_code_taken', `Another discount already has the code ${code}.`, { param: 'code' });
    }
    throw error;
  }
}
