import { waitFor } from '@ticketing/testing';
import type { ServiceName } from '../tools/system/services';
import { as, call, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';
import { kill, restart } from './support/processes';
import { readPids } from './support/system';

/**
 * The re-driver, quick enough for a test: pending issuances still for a second are driven on
 * every half second. Every issuance of a test runs at once (ISSUANCE_CONCURRENCY could otherwise
 * queue one of the rush behind the first issuance, into a later batch), so the whole rush is
 * sold when the kill lands.
 */
const QUICK_REDRIVE = { REDRIVE_INTERVAL_MS: '500', REDRIVE_AFTER_MS: '1000', ISSUANCE_CONCURRENCY: '20' };
/**
 * Catalog holds each reply this long after its commit. An issuance's calls are hold (priced)
 * and commit, and ticketing sends an account's holds, and its commits, one batch call at a time
 * (decision 0054). So a first issuance, sent alone, holds the way for a rush sent just after it:
 * the rush's holds go in the next batch at about 2 s (answered at 4 s), and its commits in one
 * batch at about 4 s, committed in catalog at once and answered at about 6 s. A kill at 5.1 s
 * lands after the whole rush was sold and before any of its tickets were made; the first
 * issuance has its ticket by then.
 */
const SLOW_CATALOG = { REPLY_DELAY_MS: '2000' };
const CATALOG_SLOWED_A_LITTLE = { REPLY_DELAY_MS: '300' };
const RUSH_AFTER_MS = 300;
const KILL_AFTER_MS = 5100;
const PRICE = 2500;

/**
 * Issuance spans catalog's database and ticketing's (decision 0030). Whichever process dies
 * after catalog sold the units and before ticketing created the tickets, once or again and
 * again, the re-driver finishes the issuance: each tier's `sold` ends equal to its tickets,
 * never past capacity.
 */
describe('issuance: sold equals tickets after a process dies mid-issuance', () => {
  afterAll(async () => {
    // Leave the system as the suite started it.
    await restart('catalog');
    await restart('ticketing');
  });

  const tierCounters = async (tierId: string) =>
    (await queryServiceDatabase<{ sold: number; held: number; capacity: number }>('catalog', 'SELECT sold, held, capacity FROM tiers WHERE id = $1', [tierId]))[0]!;
  const issuances = (tierId: string) =>
    queryServiceDatabase<{ status: string; count: number }>('ticketing', 'SELECT status, count(*)::int AS count FROM issuances WHERE tier_id = $1 GROUP BY status ORDER BY status', [tierId]);
  const ticketCount = async (tierId: string) =>
    (await queryServiceDatabase<{ count: number }>('ticketing', 'SELECT count(*)::int AS count FROM tickets WHERE tier_id = $1', [tierId]))[0]!.count;

  it.each<ServiceName>(['ticketing', 'catalog'])('%s killed after the sale and before the tickets: the re-driver issues them', async (victim) => {
    await restart('catalog', SLOW_CATALOG);
    await restart('ticketing', QUICK_REDRIVE);
    const { secret_key: key } = await createAccount();
    const api = as(key);
    const event = await api.post('/v1/events', { name: `Crash night (${victim})`, starts_at: '2099-09-01T20:00:00Z', currency: 'EUR' });
    const tier = await api.post(`/v1/events/${event.body.id}/tiers`, { name: 'GA', price: PRICE, capacity: 50 });
    await api.patch(`/v1/events/${event.body.id}`, { status: 'published' });

    const sale = (index: number) =>
      call('POST', `/v1/events/${event.body.id}/tickets`, {
        key,
        body: { tier_id: tier.body.id, quantity: 1, customer: { email: `fan${index}@example.com` }, payment: { type: 'external', reference: `r${index}`, amount: PRICE } },
      }).then(
        (response) => response.status,
        () => 0,
      );
    const started = Date.now();
    const first = sale(0);
    await new Promise((resolve) => setTimeout(resolve, RUSH_AFTER_MS));
    const rush = Array.from({ length: 10 }, (_, index) => sale(index + 1));
    await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_MS - (Date.now() - started)));
    expect(await tierCounters(tier.body.id)).toMatchObject({ sold: 11, held: 0 });
    expect(await ticketCount(tier.body.id)).toBe(1);
    await kill(readPids()[victim]!);
    // Back without the delay; ticketing with the quick re-driver.
    await restart(victim, victim === 'ticketing' ? QUICK_REDRIVE : {});
    expect(await first).toBe(200);
    // The rush's clients saw no success: their replies died with the process.
    expect((await Promise.all(rush)).filter((status) => status === 200)).toEqual([]);

    await waitFor('the re-driver to issue every pending issuance', async () => {
      const statuses = await issuances(tier.body.id);
      return statuses.length === 1 && statuses[0]!.status === 'issued' ? statuses : undefined;
    });
    expect(await issuances(tier.body.id)).toEqual([{ status: 'issued', count: 11 }]);
    expect(await ticketCount(tier.body.id)).toBe(11);
    expect(await tierCounters(tier.body.id)).toMatchObject({ sold: 11, held: 0 });
    expect((await api.get(`/v1/tickets?event_id=${event.body.id}`)).body.data).toHaveLength(11);
  }, 120_000);
  it('after catalog and ticketing are killed again and again in the middle of a rush, each sold unit has its ticket', async () => {
    // Replies slowed a little, so that kills land between an issuance's steps rather than around
    // them: a wave's hold is answered at about 300 ms and its commit, made at once, at about
    // 600 ms, when the kill lands (with 200 ms, sales made together finished before it).
    await restart('catalog', CATALOG_SLOWED_A_LITTLE);
    await restart('ticketing', QUICK_REDRIVE);
    const { secret_key: key } = await createAccount();
    const api = as(key);
    const event = await api.post('/v1/events', { name: 'Crash after crash', starts_at: '2099-09-02T20:00:00Z', currency: 'EUR' });
    const tier = await api.post(`/v1/events/${event.body.id}/tiers`, { name: 'GA', price: PRICE, capacity: 40 });
    await api.patch(`/v1/events/${event.body.id}`, { status: 'published' });

    let buyer = 0;
    /** Issuances sent at once; what they answer does not matter, only what the system ends with. */
    const wave = (size: number) =>
      Array.from({ length: size }, () => {
        buyer += 1;
        return call('POST', `/v1/events/${event.body.id}/tickets`, {
          key,
          body: { tier_id: tier.body.id, quantity: 1, customer: { email: `fan${buyer}@example.com` }, payment: { type: 'external', reference: `w${buyer}`, amount: PRICE } },
        }).catch(() => undefined);
      });
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const sent = [];
    for (const victim of ['ticketing', 'catalog', 'ticketing', 'catalog', 'ticketing'] as const) {
      sent.push(...wave(15));
      await pause(600);
      await kill(readPids()[victim]!);
      await restart(victim, victim === 'ticketing' ? QUICK_REDRIVE : CATALOG_SLOWED_A_LITTLE);
    }
    await Promise.all(sent);

    await waitFor(
      'the re-driver to settle every pending issuance',
      async () => ((await issuances(tier.body.id)).some((row) => row.status === 'pending') ? undefined : true),
      { timeoutMs: 60_000 },
    );
    const { sold, held, capacity } = await tierCounters(tier.body.id);
    expect(sold).toBeGreaterThan(0);
    expect(sold + held).toBeLessThanOrEqual(capacity);
    // Units still held are those of holds whose issuance died before it was recorded: each one
    // is an open reservation that expires within its minute, so none is held for good.
    const [openHolds] = await queryServiceDatabase<{ units: number; lastExpiry: Date | null }>(
      'catalog',
      "SELECT coalesce(sum(quantity), 0)::int AS units, max(expires_at) AS \"lastExpiry\" FROM inventory_reservations WHERE tier_id = $1 AND status = 'held'",
      [tier.body.id],
    );
    expect(openHolds!.units).toBe(held);
    expect(openHolds!.lastExpiry?.getTime() ?? 0).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(await ticketCount(tier.body.id)).toBe(sold);
    const issued = (await issuances(tier.body.id)).find((row) => row.status === 'issued');
    expect(issued?.count).toBe(sold);
    // The kills did land mid-issuance: some issuances were finished by the re-driver, long after they were recorded.
    const [finishedLate] = await queryServiceDatabase<{ count: number }>(
      'ticketing',
      "SELECT count(*)::int AS count FROM issuances WHERE tier_id = $1 AND status = 'issued' AND updated_at - created_at > interval '2 seconds'",
      [tier.body.id],
    );
    expect(finishedLate!.count).toBeGreaterThan(0);
  }, 180_000);
});
