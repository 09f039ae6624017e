import { Client } from 'pg';
import { newId } from '@ticketing/ids';
import { ReservationRepository } from '../src/repositories/reservation.repository';
import { useCatalogDatabase } from './support/catalog-database';

/**
 * How the reservation statements an on-sale runs in bulk reach their rows. PostgreSQL's
 * auto_explain reports the plan of each statement run inside `commit_reservations` to the
 * session that called it.
 */
describe('reservation statement plans (real PostgreSQL)', () => {
  const catalog = useCatalogDatabase();
  const tenant = { accountId: newId('acct'), mode: 'test' as const };

  /** A published event's tier of `capacity` (by default `count`), and the ids of `count` reservations of one unit of it, held. */
  async function heldReservations(count: number, capacity = count): Promise<{ eventId: string; tierId: string; ids: string[] }> {
    const event = await catalog.prisma.event.create({
      data: { id: newId('evt'), account_id: tenant.accountId, mode: tenant.mode, name: 'Plans', starts_at: new Date('2099-01-01T20:00:00Z'), status: 'published' },
    });
    const tier = await catalog.prisma.tier.create({
      data: { id: newId('tier'), account_id: tenant.accountId, mode: tenant.mode, event_id: event.id, name: 'GA', price: 1000, capacity },
    });
    const at = new Date();
    const requests = Array.from({ length: count }, () => ({
      request: { id: newId('iss'), event_id: event.id, tier_id: tier.id, kind: 'sale' as const, quantity: 1, expires_at: new Date(at.getTime() + 60_000) },
      at,
    }));
    const outcomes = await new ReservationRepository(catalog.prisma).reserveAll(tenant, event.id, tier.id, requests);
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(Array(count).fill('taken'));
    return { eventId: event.id, tierId: tier.id, ids: requests.map(({ request }) => request.id) };
  }

  /** `use` with a session of its own on the test database, closed after it. */
  async function inSession<T>(use: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ connectionString: catalog.url });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  }

  /** The plans auto_explain reports while `run` uses the session. */
  function plansWhile(run: (client: Client) => Promise<unknown>): Promise<string[]> {
    return inSession(async (client) => {
      const plans: string[] = [];
      client.on('notice', (notice) => plans.push(notice.message ?? ''));
      await client.query(`LOAD 'auto_explain'`);
      await client.query(`SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on; SET auto_explain.log_level = notice`);
      await run(client);
      return plans;
    });
  }

  /** The functions of ours the statements `run` sends call at run time, with how many calls (pg_stat_xact_user_functions); nothing `run` wrote stays. */
  function functionCallsWhile(run: (client: Client) => Promise<unknown>): Promise<Record<string, number>> {
    return inSession(async (client) => {
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL track_functions = 'all'`);
        await run(client);
        const { rows } = await client.query<{ funcname: string; calls: string }>('SELECT funcname, calls FROM pg_stat_xact_user_functions');
        return Object.fromEntries(rows.map((row) => [row.funcname, Number(row.calls)]));
      } finally {
        await client.query('ROLLBACK');
      }
    });
  }

  it('builds the tier of a reservation answer in place, never calling tier_json, which parses and plans its body at each call', async () => {
    const { eventId, tierId, ids } = await heldReservations(2);
    const committed = ids[1]!;

    const calls = await functionCallsWhile(async (client) => {
      await client.query(
        `SELECT ordinal FROM reserve_inventory_batch($1, $2, $3, $4, ARRAY[$5]::text[], ARRAY['sale']::text[], ARRAY[1]::int[], ARRAY[now() + interval '1 minute']::timestamptz[], ARRAY[now()]::timestamptz[])`,
        [tenant.accountId, tenant.mode, eventId, tierId, newId('iss')],
      );
      await client.query('SELECT tier FROM commit_reservations($1, $2, $3::text[], now())', [tenant.accountId, tenant.mode, [committed]]);
    });

    expect(calls).toEqual({ reserve_inventory_batch: 1, commit_reservations: 1 });
  });

  it('stores the reservations of a batch with one insert, not one per reservation, all under the tier row’s lock', async () => {
    const { eventId, tierId } = await heldReservations(1, 10);
    const ids = Array.from({ length: 5 }, () => newId('iss'));

    const plans = await plansWhile((client) =>
      client.query(
        `SELECT ordinal FROM reserve_inventory_batch($1, $2, $3, $4, $5::text[], array_fill('sale'::text, ARRAY[5]), array_fill(1, ARRAY[5]),
           array_fill(now() + interval '1 minute', ARRAY[5]), array_fill(now(), ARRAY[5]))`,
        [tenant.accountId, tenant.mode, eventId, tierId, ids],
      ),
    );

    expect(plans.filter((plan) => plan.includes('Insert on inventory_reservations'))).toHaveLength(1);
    expect(await catalog.prisma.inventoryReservation.count({ where: { id: { in: ids }, status: 'held' } })).toBe(5);
  });

  it('commits held reservations by primary key, never through the index of held ones by expiry', async () => {
    // Each committed reservation leaves a dead entry in that partial index until a vacuum: read
    // whole, it cost each commit of an on-sale more than the one before.
    const [first, ...rest] = (await heldReservations(40)).ids;
    await new ReservationRepository(catalog.prisma).commitAll(tenant, rest, new Date());

    const plans = await plansWhile((client) => client.query('SELECT id FROM commit_reservations($1, $2, $3::text[], now())', [tenant.accountId, tenant.mode, [first]]));

    const settling = plans.find((plan) => plan.includes('Update on inventory_reservations'));
    expect(settling).toContain('inventory_reservations_pkey');
    expect(settling).not.toContain('inventory_reservations_expiry_idx');
    expect(await catalog.prisma.inventoryReservation.findUniqueOrThrow({ where: { id: first }, select: { status: true } })).toEqual({ status: 'committed' });
  });
});
