import type { Mode } from '@ticketing/auth';
import { isCurrencyCode, MAX_INTENT_AMOUNT, type PAYOUT_STATUSES } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { optionalText } from '@ticketing/fields';

/** pending → in_transit → paid | failed (decision 0063); a failed payout's money is back in the available balance. */
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export interface Payout {
  id: string;
  mode: Mode;
  amount: number;
  currency: string;
  status: PayoutStatus;
  description: string | null;
  destination_last4: string;
  failure_code: string | null;
  failure_message: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface PayoutRequest {
  amount: number;
  currency: string;
  description: string | null;
}

export function validPayoutRequest(command: { amount: number; currency: string; description: string }): PayoutRequest {
  if (!Number.isSafeInteger(command.amount) || command.amount < 1 || command.amount > MAX_INTENT_AMOUNT) {
    throw new ApiError('parameter_invalid', `amount must be a whole number of minor units from 1 to ${MAX_INTENT_AMOUNT}.`, { param: 'amount' });
  }
  if (!isCurrencyCode(command.currency)) throw new ApiError('parameter_invalid', 'currency must be an ISO 4217 currency code, such as EUR.', { param: 'currency' });
  return { amount: command.amount, currency: command.currency.toUpperCase(), description: optionalText(command.description, 'description', 1000) };
}

/** 409 balance_insufficient: a payout takes at most what is available now. */
export function assertAvailable(request: PayoutRequest, available: number): void {
  if (request.amount > available) {
    throw new ApiError(
      'balance_insufficient',
      `The available balance is ${available} minor units of ${request.currency}, less than the payout's ${request.amount}. Payments become available after their settlement delay; GET /v1/balance shows what is pending.`,
      { param: 'amount' },
    );
  }
}
