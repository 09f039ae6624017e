import path from 'node:path';
import type { InternalClaims, Mode } from '@ticketing/auth';
import { paymentsV1 } from '@ticketing/contracts';
import { callUnary, createGrpcClient, startGrpcServer, type CallerOptions, type RunningGrpcServer } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { CatalogOrders, catalogClientsAt } from '../../src/catalog/catalog-orders';
import { createPaymentsPrisma, type PrismaClient } from '../../src/db';
import { OrderSeatHolds, seatHoldsClientAt } from '../../src/ticketing/seat-holds';
import { paymentsGrpcServices } from '../../src/grpc/services';
import { paymentCore, type PaymentCore, type PaymentCoreSettings } from '../../src/payment-core';

const tokenSecret = 'payments-test-secret-0123456789';
export const caller: CallerOptions = { tokenSecret, deadlineMs: 10_000 };

export const TEST_SETTINGS: PaymentCoreSettings = {
  fees: { percentBps: 290, fixed: 30 },
  settlementDelayMs: 0,
  sandboxDeclineDelayMs: 300,
  sandboxLatencyMs: 0,
  publicBaseUrl: 'http://127.0.0.1:8080',
  orderLifetimeSeconds: 900,
};

/** The payments service's real gRPC server on a fresh PostgreSQL database. */
export interface PaymentsHarness {
  prisma: PrismaClient;
  core: PaymentCore;
  intents: paymentsV1.PaymentIntentServiceClient;
  payments: paymentsV1.PaymentServiceClient;
  balance: paymentsV1.BalanceServiceClient;
  payouts: paymentsV1.PayoutServiceClient;
  connectAccounts: paymentsV1.ConnectAccountServiceClient;
  stop(): Promise<void>;
}

/** Catalog and ticketing as plain intents see them: never called (orders are tested end to end, against the real services). */
export const noCatalog = () => ({ catalog: new CatalogOrders(catalogClientsAt('127.0.0.1:1'), caller), seatHolds: new OrderSeatHolds(seatHoldsClientAt('127.0.0.1:1'), caller) });

export async function startPaymentsHarness(core: (prisma: PrismaClient) => PaymentCore = (prisma) => paymentCore(prisma, noCatalog(), TEST_SETTINGS, createLogger('payments-test', 'silent'))): Promise<PaymentsHarness> {
  const database: TestDatabase = await createTestDatabase('payments', path.join(__dirname, '../../prisma/migrations'));
  const prisma = createPaymentsPrisma(database.url);
  const built = core(prisma);
  const server: RunningGrpcServer = await startGrpcServer(paymentsGrpcServices(prisma, built, { tokenSecret, logger: createLogger('payments-test', 'silent') }), 0);
  const address = `127.0.0.1:${server.port}`;
  const intents = createGrpcClient(paymentsV1.PaymentIntentServiceClient, address);
  const payments = createGrpcClient(paymentsV1.PaymentServiceClient, address);
  const balance = createGrpcClient(paymentsV1.BalanceServiceClient, address);
  const payouts = createGrpcClient(paymentsV1.PayoutServiceClient, address);
  const connectAccounts = createGrpcClient(paymentsV1.ConnectAccountServiceClient, address);
  return {
    prisma,
    core: built,
    intents,
    payments,
    balance,
    payouts,
    connectAccounts,
    stop: async () => {
      for (const client of [intents, payments, balance, payouts, connectAccounts]) client.close();
      await server.shutdown();
      await prisma.$disconnect();
      await database.drop();
    },
  };
}

/** A fresh tenant per test, so no test sees another's rows. */
export const tenantClaims = (mode: Mode = 'test', accountId = newId('acct')): InternalClaims => ({ request_id: newId('req'), tenant: { account_id: accountId, mode } });

export function intentCalls(harness: PaymentsHarness) {
  const { intents, payments } = harness;
  return {
    create: (claims: InternalClaims, fields: Partial<paymentsV1.CreatePaymentIntentRequest> = {}, options: CallerOptions = caller) =>
      callUnary(intents.createPaymentIntent.bind(intents), { amount: 9000, currency: 'EUR', description: '', metadata: {}, payment_method: '', order: undefined, ...fields }, claims, options),
    confirm: (claims: InternalClaims, id: string, payment_method = '', options: CallerOptions = caller) =>
      callUnary(intents.confirmPaymentIntent.bind(intents), { id, payment_method }, claims, options),
    get: (claims: InternalClaims, id: string) => callUnary(intents.getPaymentIntent.bind(intents), { id }, claims, caller),
    getPayment: (claims: InternalClaims, id: string) => callUnary(payments.getPayment.bind(payments), { id }, claims, caller),
  };
}

/** Every ledger transaction's entries that do not sum to zero in their currency: none, always. */
export async function unbalancedLedgerTransactions(prisma: PrismaClient): Promise<unknown[]> {
  return prisma.$queryRaw<unknown[]>`SELECT transaction_id, currency, SUM(amount)::text AS total FROM ledger_entries GROUP BY transaction_id, currency HAVING SUM(amount) <> 0`;
}

/** The payment intent events enqueued about one intent, oldest first. */
export async function intentEventTypes(prisma: PrismaClient, intentId: string): Promise<string[]> {
  const rows = await prisma.outboxMessage.findMany({ where: { message_key: intentId }, orderBy: { position: 'asc' } });
  return rows.map((row) => (row.payload as { type: string }).type);
}
