import type { Mode } from '@ticketing/auth';
import { isCountryCode, isCurrencyCode, type CONNECT_ACCOUNT_STATUSES } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { optionalText } from '@ticketing/fields';

/**
 * The payout account (decision 0063): `onboarding` while requirements are due, then
 * `pending_verification` until the processor verifies it (the sandbox, in test mode, after a
 * moment), then `enabled`: only an enabled account receives payouts.
 */
export type ConnectAccountStatus = (typeof CONNECT_ACCOUNT_STATUSES)[number];

export interface ConnectAccount {
  id: string;
  mode: Mode;
  status: ConnectAccountStatus;
  business_name: string | null;
  country: string | null;
  default_currency: string | null;
  account_holder_name: string | null;
  bank_account_last4: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What the account details may be changed to; absent fields keep their values. */
export interface ConnectAccountChanges {
  business_name?: string;
  country?: string;
  default_currency?: string;
  account_holder_name?: string;
  bank_account_last4?: string;
}

const NAME_MAX_LENGTH = 200;
const ACCOUNT_NUMBER = /^[A-Z0-9]{4,34}$/;

export function validConnectAccountChanges(command: {
  business_name: string;
  country: string;
  default_currency: string;
  bank_account?: { account_holder_name: string; account_number: string };
}): ConnectAccountChanges {
  const changes: ConnectAccountChanges = {};
  const businessName = optionalText(command.business_name, 'business_name', NAME_MAX_LENGTH);
  if (businessName) changes.business_name = businessName;
  if (command.country !== '') {
    if (!isCountryCode(command.country)) throw new ApiError('parameter_invalid', 'country must be an ISO 3166-1 alpha-2 country code, such as DE.', { param: 'country' });
    changes.country = command.country.toUpperCase();
  }
  if (command.default_currency !== '') {
    if (!isCurrencyCode(command.default_currency)) throw new ApiError('parameter_invalid', 'default_currency must be an ISO 4217 currency code, such as EUR.', { param: 'default_currency' });
    changes.default_currency = command.default_currency.toUpperCase();
  }
  if (command.bank_account) {
    const holder = optionalText(command.bank_account.account_holder_name, 'bank_account.account_holder_name', NAME_MAX_LENGTH);
    if (!holder) throw new ApiError('parameter_missing', 'Missing required parameter: bank_account.account_holder_name.', { param: 'bank_account.account_holder_name' });
    const number = command.bank_account.account_number.replace(/\s/g, '').toUpperCase();
    if (!ACCOUNT_NUMBER.test(number)) {
      throw new ApiError('parameter_invalid', 'bank_account.account_number must be 4 to 34 letters and digits (an IBAN or a local account number).', { param: 'bank_account.account_number' });
    }
    changes.account_holder_name = holder;
    changes.bank_account_last4 = number.slice(-4);
  }
  return changes;
}

/** What the account still needs before it can be verified, in the order a form asks for it. */
export function requirementsDue(account: Pick<ConnectAccount, 'business_name' | 'country' | 'default_currency' | 'bank_account_last4'>): string[] {
  return [
    ...(account.business_name ? [] : ['business_name']),
    ...(account.country ? [] : ['country']),
    ...(account.default_currency ? [] : ['default_currency']),
    ...(account.bank_account_last4 ? [] : ['bank_account']),
  ];
}

/**
 * The status after a change of details: verification starts once nothing is due. A new bank
 * account is verified again, so payouts wait for it; other changes keep an enabled account enabled.
 */
export function statusAfter(current: ConnectAccountStatus | null, changed: Pick<ConnectAccount, 'business_name' | 'country' | 'default_currency' | 'bank_account_last4'>, bankAccountChanged: boolean): ConnectAccountStatus {
  if (requirementsDue(changed).length > 0) return 'onboarding';
  if (current === 'enabled' && !bankAccountChanged) return 'enabled';
  return 'pending_verification';
}
