import { ApiError, isErrorCode } from '@ticketing/errors';
import { integerInRange, requiredIdParam, requiredText, validMetadata } from '@ticketing/fields';
import { validCustomerChoice, type CustomerChoice, type CustomerReference } from './customer';
import { validPayment, type ExternalPayment, type PaymentIntentNamed, type PaymentIntentPayment } from './payment';

/**
 * An issuance is one request for tickets (decision 0030). It is recorded as pending before
 * catalog is asked for the units (its id is the reservation id there), becomes issued once the
 * units are sold and its tickets exist, or refused when catalog would not sell them.
 */
export type IssuanceStatus = 'pending' | 'issued' | 'refused';
export type IssuanceKind = 'sale' | 'comp';


/** Why an issuance was refused, kept so a retry answers the same error. */
export interface IssuanceRefusal {
  code: string;
  message: string;
  param?: string;
}

export interface TicketingIssuance {
  id: string;
  mode: string;
  event_id: string;
  tier_id: string;
  customer_id: string;
  kind: IssuanceKind;
  quantity: number;
  payment: ExternalPayment | PaymentIntentPayment | null;
  amount: number;
  currency: string;
  comp_reason: string | null;
  /** The seat hold whose seats a seated issuance sells (decision 0033). */
  seat_hold_id: string | null;
  /** The waiting-room entry whose admission this sale used (decision 0034). */
  admission_entry_id: string | null;
  /** The discount that priced this sale, counted against its limits before the units are sold (decision 0038). */
  discount_id: string | null;
  metadata: Record<string, string>;
  status: IssuanceStatus;
  refusal: IssuanceRefusal | null;
  created_at: Date;
}

interface OrderRequest {
  event_id: string;
  tier_id: string;
  quantity: number;
  customer: CustomerChoice;
  seat_hold_id: string | null;
  /** Set by the waiting room's admission gate on a sale of an event whose room is enabled. */
  admission_entry_id: string | null;
}

export interface SaleRequest extends OrderRequest {
  kind: 'sale';
  /** Absent only for an order that costs nothing (a free tier, a discount of the whole total). */
  payment: ExternalPayment | PaymentIntentNamed | null;
  /** As the buyer entered it; catalog matches it case-insensitively. */
  discount_code: string | null;
  metadata: Record<string, string>;
}

/** Complimentary tickets: no payment, a reason instead. */
export interface CompRequest extends OrderRequest {
  kind: 'comp';
  reason: string;
}

export type IssuanceRequest = SaleRequest | CompRequest;

/** Far above any real order; catalog's tier limits are the ones that usually apply. */
export const MAX_TICKETS_PER_ISSUANCE = 100;
export const COMP_REASON_MAX_LENGTH = 500;

interface OrderCommand {
  event_id: string;
  tier_id: string;
  quantity: number;
  customer?: CustomerReference;
  /** '' (proto3's "not set") when the tier is not seated. */
  seat_hold_id?: string;
}

export interface SaleCommand extends OrderCommand {
  /** '' when not given. */
  admission_token?: string;
  payment?: { reference: string; amount: number };
  /** '' when not paid through a payment intent. */
  payment_intent_id?: string;
  /** '' when the buyer entered none. */
  discount_code?: string;
  metadata: Record<string, string>;
}

export interface CompCommand extends OrderCommand {
  reason: string;
}

function validOrder(command: OrderCommand, quantity: number): OrderRequest {
  return {
    event_id: requiredIdParam(command.event_id, 'event_id'),
    tier_id: requiredIdParam(command.tier_id, 'tier_id'),
    quantity: integerInRange(quantity, 'quantity', 1, MAX_TICKETS_PER_ISSUANCE),
    customer: validCustomerChoice(command.customer),
    seat_hold_id: command.seat_hold_id ? requiredIdParam(command.seat_hold_id, 'seat_hold_id') : null,
    admission_entry_id: null,
  };
}

/** A sale's request; whether it needed a payment is known once catalog priced it (assertPaidInFull). */
export function validSaleRequest(command: SaleCommand): SaleRequest {
  return {
    kind: 'sale',
    ...validOrder(command, command.quantity),
    payment: validPayment(command.payment, command.payment_intent_id),
    discount_code: command.discount_code?.trim() || null,
    metadata: validMetadata(command.metadata),
  };
}

/** A comp's quantity may be left out (proto3's 0): one ticket. */
export function validCompRequest(command: CompCommand): CompRequest {
  return {
    kind: 'comp',
    ...validOrder(command, command.quantity === 0 ? 1 : command.quantity),
    reason: requiredText(command.reason, 'reason', COMP_REASON_MAX_LENGTH),
  };
}

/**
 * The payment recorded with a sale: money taken elsewhere must be exactly what catalog quotes for
 * the order, discounts included; a payment intent is recorded for the total, which payments
 * checks it is of when the issuance claims it (decision 0064). An order that costs nothing needs none.
 */
export function paymentInFull(payment: SaleRequest['payment'], quote: { total: number; currency: string }): ExternalPayment | PaymentIntentPayment | null {
  if (!payment) {
    if (quote.total === 0) return null;
    throw new ApiError('parameter_missing', `Missing required parameter: payment (the order's total, ${quote.total} in minor units of ${quote.currency}).`, { param: 'payment' });
  }
  if (payment.type === 'payment_intent') return { ...payment, amount: quote.total };
  if (payment.amount !== quote.total) {
    throw new ApiError('parameter_invalid', `payment.amount must be ${quote.total} (minor units of ${quote.currency}), the order's total.`, { param: 'payment.amount' });
  }
  return payment;
}

export function toRefusal(error: ApiError): IssuanceRefusal {
  return { code: error.code, message: error.message, ...(error.param === undefined ? {} : { param: error.param }) };
}

/** The refusal as the error the first call answered. */
export function refusalError(refusal: IssuanceRefusal): ApiError {
  if (!isErrorCode(refusal.code)) throw new Error(`stored issuance refusal has an unknown code: ${refusal.code}`);
  return new ApiError(refusal.code, refusal.message, { param: refusal.param });
}
