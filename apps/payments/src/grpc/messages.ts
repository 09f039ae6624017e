import type { paymentsV1 } from '@ticketing/contracts';
import { requirementsDue, type ConnectAccount } from '../domain/connect-account';
import type { PaymentIntent } from '../domain/payment-intent';
import type { Payout } from '../domain/payout';
import type { Payment } from '../repositories/payment.repository';
import type { Refund } from '../repositories/refund.repository';

export function toPaymentIntentMessage(intent: PaymentIntent): paymentsV1.PaymentIntent {
  return {
    id: intent.id,
    livemode: intent.mode === 'live',
    amount: intent.amount,
    currency: intent.currency,
    description: intent.description ?? '',
    metadata: intent.metadata,
    status: intent.status,
    payment_method: intent.payment_method ?? '',
    last_payment_error: intent.last_payment_error ?? undefined,
    next_action: intent.next_action ?? undefined,
    payment_id: intent.payment_id ?? '',
    canceled_at: intent.canceled_at?.toISOString() ?? '',
    cancellation_reason: intent.cancellation_reason ?? '',
    created_at: intent.created_at.toISOString(),
    updated_at: intent.updated_at.toISOString(),
    order: intent.order
      ? {
          ...intent.order,
          lines: intent.order.lines.map((line) => ({ ...line, seat_hold_id: line.seat_hold_id ?? '' })),
          customer: { email: intent.order.customer.email, name: intent.order.customer.name ?? '' },
          discount_id: intent.order.discount_id ?? '',
        }
      : undefined,
    expires_at: intent.expires_at?.toISOString() ?? '',
  };
}

export function toRefundMessage(refund: Refund): paymentsV1.Refund {
  return {
    id: refund.id,
    livemode: refund.mode === 'live',
    payment_id: refund.payment_id,
    amount: refund.amount,
    currency: refund.currency,
    status: refund.status,
    reason: refund.reason ?? '',
    created_at: refund.created_at.toISOString(),
  };
}

export function toPaymentMessage(payment: Payment, refunds: readonly Refund[]): paymentsV1.Payment {
  return {
    id: payment.id,
    livemode: payment.mode === 'live',
    amount: payment.amount,
    currency: payment.currency,
    fee: payment.fee,
    net: payment.amount - payment.fee,
    amount_refunded: payment.amount_refunded,
    payment_intent_id: payment.payment_intent_id,
    payment_method: payment.payment_method,
    created_at: payment.created_at.toISOString(),
    refunds: refunds.map(toRefundMessage),
  };
}

export function toPayoutMessage(payout: Payout): paymentsV1.Payout {
  return {
    id: payout.id,
    livemode: payout.mode === 'live',
    amount: payout.amount,
    currency: payout.currency,
    status: payout.status,
    description: payout.description ?? '',
    failure_code: payout.failure_code ?? '',
    failure_message: payout.failure_message ?? '',
    destination_last4: payout.destination_last4,
    created_at: payout.created_at.toISOString(),
    updated_at: payout.updated_at.toISOString(),
  };
}

export function toConnectAccountMessage(account: ConnectAccount): paymentsV1.ConnectAccount {
  return {
    id: account.id,
    livemode: account.mode === 'live',
    status: account.status,
    requirements_due: requirementsDue(account),
    payouts_enabled: account.status === 'enabled',
    business_name: account.business_name ?? '',
    country: account.country ?? '',
    default_currency: account.default_currency ?? '',
    bank_account: account.bank_account_last4 ? { account_holder_name: account.account_holder_name ?? '', last4: account.bank_account_last4 } : undefined,
    created_at: account.created_at.toISOString(),
    updated_at: account.updated_at.toISOString(),
  };
}
