import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { credentials } from '@grpc/grpc-js';
import type { InternalClaims } from '@ticketing/auth';
import { catalogV1 } from '@ticketing/contracts';
import { callUnary, implementService, startGrpcServer, type RunningGrpcServer } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { createCatalogPrisma, type PrismaClient } from '../src/db';
import { discountGrpcHandlers } from '../src/grpc/discount.grpc';
import { DiscountRepository } from '../src/repositories/discount.repository';
import { OrderPricing } from '../src/usecases/quote-order/order-pricing';
import { createDiscountRequest, firstPage, quoteOrderRequest, updateDiscountRequest } from './support/discount-requests';

const tokenSecret = 'catalog-test-secret-0123456789';

describe('catalog DiscountService (real PostgreSQL, real gRPC)', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;
  let server: RunningGrpcServer;
  let client: catalogV1.DiscountServiceClient;

  beforeAll(async () => {
    database = await createTestDatabase('catalog', path.join(__dirname, '../prisma/migrations'));
    prisma = createCatalogPrisma(database.url);
    const implementation = implementService<catalogV1.DiscountServiceServer>(discountGrpcHandlers(prisma), {
      tokenSecret,
      logger: createLogger('catalog-test', 'silent'),
    });
    server = await startGrpcServer([{ definition: catalogV1.DiscountServiceService, implementation }], 0);
    client = new catalogV1.DiscountServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
  });

  afterAll(async () => {
    client.close();
    await server.shutdown();
    await prisma.$disconnect();
    await database.drop();
  });

  type Mode = 'test' | 'live';
  const options = { tokenSecret, deadlineMs: 20_000 };
  const freshAccount = () => `acct_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const claimsFor = (accountId: string, mode: Mode = 'test'): InternalClaims => ({ request_id: 'req_test', tenant: { account_id: accountId, mode } });

  /** The DiscountService as one tenant sees it. */
  function as(accountId: string, mode: Mode = 'test') {
    const claims = claimsFor(accountId, mode);
    const rpc =
      <TRequest, TResponse>(method: (...args: never[]) => unknown) =>
      (request: TRequest) =>
        callUnary<TRequest, TResponse>(method.bind(client) as never, request, claims, options);
    return {
      create: rpc<catalogV1.CreateDiscountRequest, catalogV1.Discount>(client.createDiscount),
      get: rpc<catalogV1.GetDiscountRequest, catalogV1.Discount>(client.getDiscount),
      list: rpc<catalogV1.ListDiscountsRequest, catalogV1.DiscountList>(client.listDiscounts),
      update: rpc<catalogV1.UpdateDiscountRequest, catalogV1.Discount>(client.updateDiscount),
      deactivate: rpc<catalogV1.DeactivateDiscountRequest, catalogV1.Discount>(client.deactivateDiscount),
      createTrigger: rpc<catalogV1.CreateDiscountTriggerRequest, catalogV1.DiscountTrigger>(client.createDiscountTrigger),
      listTriggers: rpc<catalogV1.ListDiscountTriggersRequest, catalogV1.DiscountTriggerList>(client.listDiscountTriggers),
      deleteTrigger: rpc<catalogV1.DeleteDiscountTriggerRequest, catalogV1.DiscountTriggerDeleted>(client.deleteDiscountTrigger),
      quote: rpc<catalogV1.QuoteOrderRequest, catalogV1.Quote>(client.quoteOrder),
      redeem: rpc<catalogV1.RedeemDiscountRequest, catalogV1.DiscountRedemption>(client.redeemDiscount),
      release: rpc<catalogV1.ReleaseDiscountRedemptionRequest, catalogV1.DiscountRedemption>(client.releaseDiscountRedemption),
    };
  }

  /** An event with one tier per price, written directly: tiers have their own service. */
  async function seedEvent(accountId: string, prices: number[], { mode = 'test', currency = 'EUR' }: { mode?: Mode; currency?: string } = {}) {
    const event = await prisma.event.create({
      data: { id: newId('evt'), account_id: accountId, mode, name: 'Harbour Lights', starts_at: new Date('2027-07-01T20:00:00Z'), currency },
    });
    const tierIds: string[] = [];
    for (const [index, price] of prices.entries()) {
      const tier = await prisma.tier.create({
        data: { id: newId('tier'), account_id: accountId, mode, event_id: event.id, name: `Tier ${index}`, price: BigInt(price), capacity: 100 },
      });
      tierIds.push(tier.id);
    }
    return { eventId: event.id, tierIds };
  }

  const outboxTypes = async (discountId: string) =>
    (await prisma.outboxMessage.findMany({ where: { message_key: discountId }, orderBy: { position: 'asc' } })).map(
      (message) => (message.payload as { type: string }).type,
    );
  const discountRows = (accountId: string, mode: Mode = 'test') => prisma.discount.count({ where: { account_id: accountId, mode } });

  describe('discounts', () => {
    it('creates a discount and its outbox message in one transaction, and reads it back', async () => {
      const account = freshAccount();
      const { eventId } = await seedEvent(account, [4500]);
      const created = await as(account).create(
        createDiscountRequest({ code: 'summer-25', percent_off: undefined, amount_off: 500, currency: 'eur', applies_to: { event_ids: [eventId], tier_ids: [] }, max_redemptions: 100 }),
      );
      expect(created).toMatchObject({
        id: expect.stringMatching(/^dsc_/),
        livemode: false,
        code: 'SUMMER-25',
        percent_off: 0,
        amount_off: 500,
        currency: 'EUR',
        applies_to: { event_ids: [eventId], tier_ids: [] },
        max_redemptions: 100,
        max_redemptions_per_customer: 0,
        times_redeemed: 0,
        active: true,
      });
      expect(await as(account).get({ id: created.id })).toEqual(created);
      expect(await outboxTypes(created.id)).toEqual(['discount.created']);
      const [message] = await prisma.outboxMessage.findMany({ where: { message_key: created.id } });
      expect(message!.topic).toBe('catalog.discount.v1');
      expect(message!.payload).toMatchObject({ account_id: account, mode: 'test', data: { discount_id: created.id, code: 'SUMMER-25', amount_off: 500, currency: 'EUR' } });
    });

    it.each([
      ['percent out of range', { percent_off: 101 }, 'parameter_invalid', 'percent_off'],
      ['negative amount', { percent_off: undefined, amount_off: -5, currency: 'EUR' }, 'parameter_invalid', 'amount_off'],
      ['amount without currency', { percent_off: undefined, amount_off: 500 }, 'parameter_missing', 'currency'],
      ['neither value', { percent_off: undefined }, 'parameter_missing', 'percent_off'],
      ['until before from', { valid_from: '2027-03-01T00:00:00Z', valid_until: '2027-02-01T00:00:00Z' }, 'parameter_invalid', 'valid_until'],
      ['malformed code', { code: 'no spaces' }, 'parameter_invalid', 'code'],
      ['unknown event', { applies_to: { event_ids: ['evt_missing'], tier_ids: [] } }, 'resource_missing', 'applies_to.event_ids[0]'],
      ['negative limit', { max_redemptions: -1 }, 'parameter_invalid', 'max_redemptions'],
    ])('writes nothing for %s', async (_name, fields, code, param) => {
      const account = freshAccount();
      const outboxBefore = await prisma.outboxMessage.count();
      await expect(as(account).create(createDiscountRequest(fields))).rejects.toMatchObject({ code, param });
      expect(await discountRows(account)).toBe(0);
      expect(await prisma.outboxMessage.count()).toBe(outboxBefore);
    });

    it('refuses an amount in another currency than the events it applies to', async () => {
      const account = freshAccount();
      const { eventId } = await seedEvent(account, [1000], { currency: 'USD' });
      const request = createDiscountRequest({ percent_off: undefined, amount_off: 500, currency: 'EUR', applies_to: { event_ids: [eventId], tier_ids: [] } });
      await expect(as(account).create(request)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'currency' });
      expect(await discountRows(account)).toBe(0);
    });

    it('keeps codes unique per account and mode, whatever their case', async () => {
      const account = freshAccount();
      await as(account).create(createDiscountRequest({ code: 'WELCOME' }));
      await expect(as(account).create(createDiscountRequest({ code: 'welcome' }))).rejects.toMatchObject({ code: 'discount_code_taken', param: 'code', status: 409 });
      await expect(as(account, 'live').create(createDiscountRequest({ code: 'WELCOME' }))).resolves.toMatchObject({ livemode: true, code: 'WELCOME' });
      await expect(as(freshAccount()).create(createDiscountRequest({ code: 'WELCOME' }))).resolves.toMatchObject({ code: 'WELCOME' });
      const other = await as(account).create(createDiscountRequest({ code: 'OTHER' }));
      await expect(as(account).update(updateDiscountRequest(other.id, { code: 'Welcome' }))).rejects.toMatchObject({ code: 'discount_code_taken' });
      expect(await discountRows(account)).toBe(2);
    });

    it('lists newest first in pages, scoped to the tenant', async () => {
      const account = freshAccount();
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) ids.push((await as(account).create(createDiscountRequest({ percent_off: index + 1 }))).id);
      await as(account, 'live').create(createDiscountRequest());
      const first = await as(account).list(firstPage(3));
      expect(first.data.map((discount) => discount.id)).toEqual([ids[4], ids[3], ids[2]]);
      expect(first.has_more).toBe(true);
      const second = await as(account).list({ page: { limit: 3, starting_after: ids[2]! } });
      expect(second.data.map((discount) => discount.id)).toEqual([ids[1], ids[0]]);
      expect(second.has_more).toBe(false);
      await expect(as(account).list({ page: { limit: 3, starting_after: 'dsc_unknown' } })).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    });

    it('updates only the fields given, clears with empty values, and publishes discount.updated', async () => {
      const account = freshAccount();
      const created = await as(account).create(createDiscountRequest({ code: 'SPRING', valid_until: '2027-06-01T00:00:00Z', max_redemptions: 5 }));
      const updated = await as(account).update(updateDiscountRequest(created.id, { code: '', valid_until: '', max_redemptions: 0, max_redemptions_per_customer: 2 }));
      expect(updated).toMatchObject({ code: '', valid_until: '', max_redemptions: 0, max_redemptions_per_customer: 2, percent_off: 10 });
      await expect(as(account).update(updateDiscountRequest(created.id))).rejects.toMatchObject({ code: 'parameter_missing' });
      await expect(as(account).update(updateDiscountRequest(created.id, { valid_from: '2027-07-01T00:00:00Z', valid_until: '2027-06-01T00:00:00Z' }))).rejects.toMatchObject({
        param: 'valid_until',
      });
      expect(await outboxTypes(created.id)).toEqual(['discount.created', 'discount.updated']);
    });

    it('refuses a max_redemptions below what is already redeemed', async () => {
      const account = freshAccount();
      const discount = await as(account).create(createDiscountRequest());
      for (const order of ['ord_1', 'ord_2', 'ord_3']) await as(account).redeem({ discount_id: discount.id, order_id: order, customer_id: '' });
      await expect(as(account).update(updateDiscountRequest(discount.id, { max_redemptions: 2 }))).rejects.toMatchObject({ code: 'redemption_limit_below_redeemed', status: 409, param: 'max_redemptions' });
      await expect(as(account).update(updateDiscountRequest(discount.id, { max_redemptions: 3 }))).resolves.toMatchObject({ max_redemptions: 3, times_redeemed: 3 });
    });

    it('deactivates once: a second call changes and publishes nothing', async () => {
      const account = freshAccount();
      const discount = await as(account).create(createDiscountRequest());
      expect(await as(account).deactivate({ id: discount.id })).toMatchObject({ active: false });
      expect(await as(account).deactivate({ id: discount.id })).toMatchObject({ active: false });
      expect(await outboxTypes(discount.id)).toEqual(['discount.created', 'discount.deactivated']);
      await expect(as(account).redeem({ discount_id: discount.id, order_id: 'ord_1', customer_id: '' })).rejects.toMatchObject({ code: 'discount_inactive' });
    });

    it('hides each tenant’s discounts from every other tenant', async () => {
      const account = freshAccount();
      const discount = await as(account, 'live').create(createDiscountRequest());
      for (const other of [as(account, 'test'), as(freshAccount(), 'live')]) {
        await expect(other.get({ id: discount.id })).rejects.toMatchObject({ code: 'resource_missing', status: 404 });
        await expect(other.update(updateDiscountRequest(discount.id, { active: false }))).rejects.toMatchObject({ code: 'resource_missing' });
        await expect(other.deactivate({ id: discount.id })).rejects.toMatchObject({ code: 'resource_missing' });
        await expect(other.listTriggers({ discount_id: discount.id, page: undefined })).rejects.toMatchObject({ code: 'resource_missing' });
        await expect(other.redeem({ discount_id: discount.id, order_id: 'ord_1', customer_id: '' })).rejects.toMatchObject({ code: 'resource_missing' });
        expect((await other.list(firstPage())).data.map((item) => item.id)).not.toContain(discount.id);
      }
      expect(await as(account, 'live').get({ id: discount.id })).toMatchObject({ active: true, times_redeemed: 0 });
    });
  });

  describe('triggers', () => {
    it('adds, lists and deletes each kind of trigger, publishing each change', async () => {
      const account = freshAccount();
      const { tierIds } = await seedEvent(account, [1000, 2000]);
      const discount = await as(account).create(createDiscountRequest());
      const segment = newId('seg');
      const conditions: Array<catalogV1.CreateDiscountTriggerRequest['condition']> = [
        { $case: 'min_quantity', value: { quantity: 4 } },
        { $case: 'purchase_window', value: { starts_at: '', ends_at: '2027-03-01T00:00:00Z' } },
        { $case: 'customer_segment', value: { segment_id: segment } },
        { $case: 'tier_bundle', value: { tier_ids: tierIds } },
      ];
      const created: catalogV1.DiscountTrigger[] = [];
      for (const condition of conditions) created.push(await as(account).createTrigger({ discount_id: discount.id, condition }));
      expect(created[1]).toMatchObject({
        id: expect.stringMatching(/^dtr_/),
        discount_id: discount.id,
        condition: { $case: 'purchase_window', value: { starts_at: '', ends_at: '2027-03-01T00:00:00.000Z' } },
      });
      const page = await as(account).listTriggers({ discount_id: discount.id, page: { limit: 3, starting_after: '' } });
      expect(page.data.map((trigger) => trigger.id)).toEqual([created[3]!.id, created[2]!.id, created[1]!.id]);
      expect(page.has_more).toBe(true);

      expect(await as(account).deleteTrigger({ discount_id: discount.id, id: created[0]!.id })).toEqual({ id: created[0]!.id });
      await expect(as(account).deleteTrigger({ discount_id: discount.id, id: created[0]!.id })).rejects.toMatchObject({ code: 'resource_missing' });
      expect((await as(account).listTriggers({ discount_id: discount.id, page: undefined })).data).toHaveLength(3);
      expect(await outboxTypes(discount.id)).toEqual([
        'discount.created',
        'discount.trigger_added',
        'discount.trigger_added',
        'discount.trigger_added',
        'discount.trigger_added',
        'discount.trigger_removed',
      ]);
    });

    it('pages on past a trigger deleted between two pages: the deleted cursor still marks its place, for its own discount only', async () => {
      const account = freshAccount();
      const discount = await as(account).create(createDiscountRequest());
      const created: catalogV1.DiscountTrigger[] = [];
      for (const quantity of [2, 3, 4, 5]) created.push(await as(account).createTrigger({ discount_id: discount.id, condition: { $case: 'min_quantity', value: { quantity } } }));
      const first = await as(account).listTriggers({ discount_id: discount.id, page: { limit: 2, starting_after: '' } });
      const cursor = first.data.at(-1)!.id;
      expect(cursor).toBe(created[2]!.id);

      await as(account).deleteTrigger({ discount_id: discount.id, id: cursor });
      const rest = await as(account).listTriggers({ discount_id: discount.id, page: { limit: 2, starting_after: cursor } });
      expect({ ids: rest.data.map((trigger) => trigger.id), has_more: rest.has_more }).toEqual({ ids: [created[1]!.id, created[0]!.id], has_more: false });

      // Another discount's list, or another account's, does not take it.
      const other = await as(account).create(createDiscountRequest());
      await expect(as(account).listTriggers({ discount_id: other.id, page: { limit: 2, starting_after: cursor } })).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after' });
      const stranger = freshAccount();
      const theirs = await as(stranger).create(createDiscountRequest());
      await expect(as(stranger).listTriggers({ discount_id: theirs.id, page: { limit: 2, starting_after: cursor } })).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    });

    it('refuses a bad condition without writing it', async () => {
      const account = freshAccount();
      const discount = await as(account).create(createDiscountRequest());
      const [first, second] = await Promise.all([seedEvent(account, [1000]), seedEvent(account, [2000])]);
      const refusals: Array<[catalogV1.CreateDiscountTriggerRequest['condition'], string, string]> = [
        [undefined, 'parameter_missing', 'kind'],
        [{ $case: 'min_quantity', value: { quantity: 0 } }, 'parameter_invalid', 'quantity'],
        [{ $case: 'purchase_window', value: { starts_at: '2027-03-01T00:00:00Z', ends_at: '2027-01-01T00:00:00Z' } }, 'parameter_invalid', 'ends_at'],
        [{ $case: 'customer_segment', value: { segment_id: 'nope' } }, 'parameter_invalid', 'segment_id'],
        [{ $case: 'tier_bundle', value: { tier_ids: ['tier_a', 'tier_b'] } }, 'resource_missing', 'tier_ids[0]'],
        // An order is for one event: a bundle across two could never be complete.
        [{ $case: 'tier_bundle', value: { tier_ids: [first.tierIds[0]!, second.tierIds[0]!] } }, 'parameter_invalid', 'tier_ids[1]'],
      ];
      for (const [condition, code, param] of refusals) {
        await expect(as(account).createTrigger({ discount_id: discount.id, condition })).rejects.toMatchObject({ code, param });
      }
      await expect(as(account).createTrigger({ discount_id: 'dsc_missing', condition: { $case: 'min_quantity', value: { quantity: 2 } } })).rejects.toMatchObject({
        code: 'resource_missing',
        status: 404,
      });
      expect(await prisma.discountTrigger.count({ where: { account_id: account } })).toBe(0);
      expect(await outboxTypes(discount.id)).toEqual(['discount.created']);
    });
  });

  describe('quotes', () => {
    it('prices tier prices × quantities and applies the best automatic discount whose triggers hold', async () => {
      const account = freshAccount();
      const { eventId, tierIds } = await seedEvent(account, [2000, 6000]);
      const [cheap, dear] = tierIds as [string, string];
      const tenPercent = await as(account).create(createDiscountRequest({ percent_off: 10 }));
      await as(account).createTrigger({ discount_id: tenPercent.id, condition: { $case: 'min_quantity', value: { quantity: 2 } } });
      const bundle = await as(account).create(createDiscountRequest({ percent_off: undefined, amount_off: 2500, currency: 'EUR' }));
      await as(account).createTrigger({ discount_id: bundle.id, condition: { $case: 'tier_bundle', value: { tier_ids: [cheap, dear] } } });
      await as(account).create(createDiscountRequest({ percent_off: 90 }));

      const single = await as(account).quote(quoteOrderRequest(eventId, [{ tier_id: cheap, quantity: 1 }]));
      expect(single).toMatchObject({ livemode: false, event_id: eventId, currency: 'EUR', subtotal: 2000, discount_amount: 0, total: 2000, discount: undefined });

      const pair = await as(account).quote(quoteOrderRequest(eventId, [{ tier_id: cheap, quantity: 2 }]));
      expect(pair).toMatchObject({ subtotal: 4000, discount_amount: 400, total: 3600, discount: { id: tenPercent.id } });

      const both = await as(account).quote(quoteOrderRequest(eventId, [{ tier_id: cheap, quantity: 2 }, { tier_id: dear, quantity: 1 }]));
      expect(both).toMatchObject({ subtotal: 10_000, discount_amount: 2500, total: 7500, discount: { id: bundle.id } });
      expect(both.lines).toEqual([
        { tier_id: cheap, quantity: 2, unit_price: 2000, subtotal: 4000, discount_amount: 1000, total: 3000 },
        { tier_id: dear, quantity: 1, unit_price: 6000, subtotal: 6000, discount_amount: 1500, total: 4500 },
      ]);
    });

    it('applies a code, says why a code cannot be used, and refuses an unknown one', async () => {
      const account = freshAccount();
      const { eventId, tierIds } = await seedEvent(account, [5000]);
      const items = [{ tier_id: tierIds[0]!, quantity: 1 }];
      const vip = await as(account).create(createDiscountRequest({ code: 'VIP', percent_off: 20, max_redemptions_per_customer: 1 }));
      const segment = newId('seg');
      await as(account).createTrigger({ discount_id: vip.id, condition: { $case: 'customer_segment', value: { segment_id: segment } } });

      const quote = await as(account).quote(quoteOrderRequest(eventId, items, { discount_code: 'vip', customer_id: 'cus_1', customer_segment_ids: [segment] }));
      expect(quote).toMatchObject({ total: 4000, discount: { id: vip.id, code: 'VIP' } });
      await expect(as(account).quote(quoteOrderRequest(eventId, items, { discount_code: 'VIP', customer_id: 'cus_1' }))).rejects.toMatchObject({
        code: 'discount_not_applicable',
        param: 'discount_code',
      });
      await as(account).redeem({ discount_id: vip.id, order_id: 'ord_1', customer_id: 'cus_1' });
      await expect(
        as(account).quote(quoteOrderRequest(eventId, items, { discount_code: 'VIP', customer_id: 'cus_1', customer_segment_ids: [segment] })),
      ).rejects.toMatchObject({ code: 'discount_not_applicable', message: expect.stringMatching(/maximum number of times/) });
      await expect(as(account).quote(quoteOrderRequest(eventId, items, { discount_code: 'NOPE' }))).rejects.toMatchObject({
        code: 'resource_missing',
        param: 'discount_code',
        status: 400,
      });
    });

    it('prices only the event’s own tiers in the caller’s tenant', async () => {
      const account = freshAccount();
      const { eventId, tierIds } = await seedEvent(account, [1000]);
      const other = await seedEvent(account, [1000]);
      await expect(as(account).quote(quoteOrderRequest(eventId, [{ tier_id: other.tierIds[0]!, quantity: 1 }]))).rejects.toMatchObject({
        code: 'resource_missing',
        param: 'items[0].tier_id',
      });
      await expect(as(account, 'live').quote(quoteOrderRequest(eventId, [{ tier_id: tierIds[0]!, quantity: 1 }]))).rejects.toMatchObject({
        code: 'resource_missing',
        param: 'event_id',
      });
      await expect(as(account).quote(quoteOrderRequest(eventId, []))).rejects.toMatchObject({ code: 'parameter_missing', param: 'items' });
    });
    it('lets concurrent quotes of a tenant share one lookup of its automatic discounts, each keeping those valid at its own instant', async () => {
      const account = freshAccount();
      const { eventId, tierIds } = await seedEvent(account, [1000]);
      const until = new Date('2027-03-01T12:00:00Z');
      const earlyBird = await as(account).create(createDiscountRequest({ percent_off: 10, valid_until: until.toISOString() }));
      await as(account).createTrigger({ discount_id: earlyBird.id, condition: { $case: 'min_quantity', value: { quantity: 1 } } });
      const pricing = new OrderPricing(prisma);
      const lookups = jest.spyOn(DiscountRepository.prototype, 'findAutomatic');
      try {
        const tenant = { accountId: account, mode: 'test' as const };
        const lines = [{ tier_id: tierIds[0]!, event_id: eventId, quantity: 1, unit_price: 1000 }];
        const quoted = await Promise.all(
          [-2000, -1000, 1000].map((offset) =>
            pricing.price(tenant, eventId, { currency: 'EUR', lines, discountCode: null, customerId: null, segmentIds: new Set(), at: new Date(until.getTime() + offset) }),
          ),
        );
        expect(quoted.map((quote) => quote.total)).toEqual([900, 900, 1000]);
        // Made in the same turn, the three go together (decision 0054).
        expect(lookups).toHaveBeenCalledTimes(1);
      } finally {
        lookups.mockRestore();
      }
    });
  });

  describe('redemptions', () => {
    it('never exceeds max_redemptions: 40 parallel orders on a limit of 7 redeem exactly 7', async () => {
      const account = freshAccount();
      const discount = await as(account).create(createDiscountRequest({ max_redemptions: 7 }));
      const results = await Promise.allSettled(
        Array.from({ length: 40 }, (_, index) => as(account).redeem({ discount_id: discount.id, order_id: `ord_${index}`, customer_id: `cus_${index}` })),
      );
      const succeeded = results.filter((result) => result.status === 'fulfilled');
      const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      expect(succeeded).toHaveLength(7);
      expect(refused).toHaveLength(33);
      for (const { reason } of refused) expect(reason).toMatchObject({ code: 'redemption_limit_reached', status: 409 });
      expect(await as(account).get({ id: discount.id })).toMatchObject({ times_redeemed: 7 });
      expect(await prisma.discountRedemption.count({ where: { discount_id: discount.id } })).toBe(7);
      expect((await outboxTypes(discount.id)).filter((type) => type === 'discount.redeemed')).toHaveLength(7);
    });

    it('never exceeds the per-customer limit under concurrency', async () => {
      const account = freshAccount();
      const discount = await as(account).create(createDiscountRequest({ max_redemptions_per_customer: 2 }));
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, index) => as(account).redeem({ discount_id: discount.id, order_id: `ord_${index}`, customer_id: 'cus_same' })),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2);
      for (const result of results.filter((candidate): candidate is PromiseRejectedResult => candidate.status === 'rejected')) {
        expect(result.reason).toMatchObject({ code: 'customer_redemption_limit_reached' });
      }
      await expect(as(account).redeem({ discount_id: discount.id, order_id: 'ord_other', customer_id: 'cus_other' })).resolves.toMatchObject({ times_redeemed: 3 });
      await expect(as(account).redeem({ discount_id: discount.id, order_id: 'ord_guest', customer_id: '' })).rejects.toMatchObject({
        code: 'parameter_missing',
        param: 'customer_id',
      });
      expect(await as(account).get({ id: discount.id })).toMatchObject({ times_redeemed: 3 });
    });

    it('counts the same order once, however often and concurrently it is redeemed', async () => {
      const account = freshAccount();
      const discount = await as(account).create(createDiscountRequest({ max_redemptions: 1 }));
      const results = await Promise.all(Array.from({ length: 10 }, () => as(account).redeem({ discount_id: discount.id, order_id: 'ord_once', customer_id: 'cus_1' })));
      for (const result of results) expect(result).toMatchObject({ order_id: 'ord_once', customer_id: 'cus_1', released_at: '', times_redeemed: 1 });
      expect(new Set(results.map((result) => result.redeemed_at)).size).toBe(1);
      expect(await as(account).redeem({ discount_id: discount.id, order_id: 'ord_once', customer_id: 'cus_1' })).toEqual(results[0]);
      expect(await outboxTypes(discount.id)).toEqual(['discount.created', 'discount.redeemed']);
    });

    it('releases a redemption once, freeing the limit, and lets the order redeem again', async () => {
      const account = freshAccount();
      const discount = await as(account).create(createDiscountRequest({ max_redemptions: 1 }));
      await as(account).redeem({ discount_id: discount.id, order_id: 'ord_1', customer_id: '' });
      await expect(as(account).redeem({ discount_id: discount.id, order_id: 'ord_2', customer_id: '' })).rejects.toMatchObject({ code: 'redemption_limit_reached' });

      const released = await as(account).release({ discount_id: discount.id, order_id: 'ord_1' });
      expect(released).toMatchObject({ order_id: 'ord_1', released_at: expect.stringMatching(/Z$/), times_redeemed: 0 });
      expect(await as(account).release({ discount_id: discount.id, order_id: 'ord_1' })).toEqual(released);
      await expect(as(account).release({ discount_id: discount.id, order_id: 'ord_never' })).rejects.toMatchObject({ code: 'resource_missing', param: 'order_id' });

      expect(await as(account).redeem({ discount_id: discount.id, order_id: 'ord_1', customer_id: '' })).toMatchObject({ released_at: '', times_redeemed: 1 });
      expect(await outboxTypes(discount.id)).toEqual(['discount.created', 'discount.redeemed', 'discount.redemption_released', 'discount.redeemed']);
    });

    it('refuses a redemption outside the validity window', async () => {
      const account = freshAccount();
      const expired = await as(account).create(createDiscountRequest({ valid_from: '2020-01-01T00:00:00Z', valid_until: '2021-01-01T00:00:00Z' }));
      await expect(as(account).redeem({ discount_id: expired.id, order_id: 'ord_1', customer_id: '' })).rejects.toMatchObject({
        code: 'discount_inactive',
        message: expect.stringMatching(/expired/),
      });
      expect(await prisma.discountRedemption.count({ where: { discount_id: expired.id } })).toBe(0);
    });
  });
});
