import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import type { InternalClaims, Tenant } from '@ticketing/auth';
import { catalogV1, TICKETING_TICKET_TOPIC, type PaymentIntentFacts } from '@ticketing/contracts';
import { serviceCalls, type CallerOptions } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { TicketCodeSigner } from '@ticketing/ticket-codes';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createTicketingPrisma, type PrismaClient } from '../src/db';
import { DriveIssuanceUseCase } from '../src/usecases/drive-issuance/drive-issuance.usecase';
import { IssuePaidOrderUseCase } from '../src/usecases/issue-paid-order/issue-paid-order.usecase';
import { startCatalogDouble, type RunningCatalogDouble } from './support/catalog-double-server';
import { PaymentsDouble } from './support/payments.double';
import { ofType, publishedOn } from './support/published';

const options: CallerOptions = { tokenSecret: 'ticketing-test-secret-0123456789', deadlineMs: 10_000 };
const codes = new TicketCodeSigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());

/** A succeeded order intent's tickets (decision 0062), issued by ticketing on real PostgreSQL against a catalog double. */
describe('paid orders (real PostgreSQL, catalog double)', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;
  let catalogSide: RunningCatalogDouble;
  let issuePaidOrder: IssuePaidOrderUseCase;
  const payments = new PaymentsDouble();

  beforeAll(async () => {
    database = await createTestDatabase('ticketing', path.join(__dirname, '../prisma/migrations'));
    prisma = createTicketingPrisma(database.url);
    catalogSide = await startCatalogDouble(options, createLogger('ticketing-test', 'silent'));
    issuePaidOrder = new IssuePaidOrderUseCase(prisma, new DriveIssuanceUseCase(prisma, catalogSide.catalog, codes, payments));
  });

  afterAll(async () => {
    await catalogSide.close();
    await prisma.$disconnect();
    await database.drop();
  });

  /** Units held and sold in catalog under the issuance id, as payments does before the intent succeeds. */
  async function soldByPayments(tenant: Tenant, eventId: string, tierId: string, quantity: number): Promise<string> {
    const issuanceId = newId('iss');
    const claims: InternalClaims = { request_id: newId('req'), tenant: { account_id: tenant.accountId, mode: tenant.mode } };
    const inventory = serviceCalls(catalogSide.clients.inventory, claims, options);
    await inventory.reserveInventory({ reservation_id: issuanceId, event_id: eventId, tier_id: tierId, quantity, kind: catalogV1.ReservationKind.RESERVATION_KIND_SALE, ttl_seconds: 600, customer_id: '' });
    await inventory.commitReservation({ reservation_id: issuanceId });
    return issuanceId;
  }

  const succeeded = (eventId: string, lines: PaymentIntentFacts['order'] extends infer O ? (O extends { lines: infer L } ? L : never) : never, discountId: string | null = null) => ({
    payment_intent_id: payments.order(lines.map((line) => line.issuance_id)),
    status: 'succeeded',
    amount: lines.reduce((sum, line) => sum + line.amount, 0),
    currency: 'EUR',
    payment_method: 'pm_card_visa',
    payment_id: newId('pay'),
    last_payment_error: null,
    metadata: { cart: 'c-9' },
    order: { event_id: eventId, customer: { email: 'payer@example.com', name: 'Pat Payer' }, discount_id: discountId, lines },
  });

  it('issues each line’s tickets under its issuance id, paid by the intent, once however often the message comes, without counting the discount again', async () => {
    const tenant: Tenant = { accountId: newId('acct'), mode: 'test' };
    const { eventId, tierId } = catalogSide.double.addTier(tenant, { price: 2500, capacity: 5 });
    const other = catalogSide.double.addTier(tenant, { price: 4000, capacity: 5, eventId });
    const lines = [
      { tier_id: tierId, quantity: 2, amount: 5000, issuance_id: await soldByPayments(tenant, eventId, tierId, 2), seat_hold_id: null },
      { tier_id: other.tierId, quantity: 1, amount: 4000, issuance_id: await soldByPayments(tenant, eventId, other.tierId, 1), seat_hold_id: null },
    ];
    const discountId = catalogSide.double.addCodeDiscount('PAIDORDER', 500, 10);
    const intent = succeeded(eventId, lines, discountId);

    expect(await issuePaidOrder.execute(tenant, intent)).toBe(3);
    expect(await issuePaidOrder.execute(tenant, intent)).toBe(3);
    await Promise.all([issuePaidOrder.execute(tenant, intent), issuePaidOrder.execute(tenant, intent)]);

    const issuances = await prisma.issuance.findMany({ where: { id: { in: lines.map((line) => line.issuance_id) } }, orderBy: { amount: 'asc' } });
    expect(issuances.map(({ status, payment_type, payment_reference, amount, quantity, metadata }) => ({ status, payment_type, payment_reference, amount: Number(amount), quantity, metadata }))).toEqual([
      { status: 'issued', payment_type: 'payment_intent', payment_reference: intent.payment_intent_id, amount: 4000, quantity: 1, metadata: { cart: 'c-9' } },
      { status: 'issued', payment_type: 'payment_intent', payment_reference: intent.payment_intent_id, amount: 5000, quantity: 2, metadata: { cart: 'c-9' } },
    ]);
    expect(await prisma.ticket.count({ where: { issuance_id: { in: lines.map((line) => line.issuance_id) } } })).toBe(3);
    const customer = await prisma.customer.findFirst({ where: { account_id: tenant.accountId } });
    expect(customer).toMatchObject({ email: 'payer@example.com', name: 'Pat Payer' });
    expect(ofType(await publishedOn(prisma, TICKETING_TICKET_TOPIC, eventId), 'ticket.issued')).toHaveLength(2);
    // The units stay sold once (the commit found them sold by payments), and payments counted the discount, not ticketing.
    expect(catalogSide.double.counters(tierId)).toEqual({ held: 0, sold: 2 });
    expect(catalogSide.double.redemptions(discountId)).toBe(0);
  });
});
