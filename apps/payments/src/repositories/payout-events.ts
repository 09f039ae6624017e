import type { Tenant } from '@ticketing/auth';
import { PAYMENTS_CONNECT_ACCOUNT_TOPIC, PAYMENTS_PAYOUT_TOPIC, type PayoutPayloads } from '@ticketing/contracts';
import { enqueueEvent } from '@ticketing/kafka';
import type { PaymentsDb } from '../db';
import { requirementsDue, type ConnectAccount } from '../domain/connect-account';
import type { Payout } from '../domain/payout';

/** Enqueues the payout's event in the caller's transaction, with the state it commits. */
export async function enqueuePayoutEvent(tx: PaymentsDb, tenant: Tenant, type: keyof PayoutPayloads, payout: Payout): Promise<void> {
  await enqueueEvent(tx, {
    topic: PAYMENTS_PAYOUT_TOPIC,
    type,
    aggregateId: payout.id,
    tenant,
    data: { payout_id: payout.id, status: payout.status, amount: payout.amount, currency: payout.currency, failure_code: payout.failure_code },
  });
}

export async function enqueueConnectAccountUpdated(tx: PaymentsDb, tenant: Tenant, account: ConnectAccount): Promise<void> {
  await enqueueEvent(tx, {
    topic: PAYMENTS_CONNECT_ACCOUNT_TOPIC,
    type: 'connect_account.updated',
    aggregateId: account.id,
    tenant,
    data: { connect_account_id: account.id, status: account.status, requirements_due: requirementsDue(account), payouts_enabled: account.status === 'enabled' },
  });
}
