/**
 * Checkout benchmark: paid orders through the whole system at a fixed concurrency. Each of
 * `concurrency` buyers creates an order intent for one ticket (POST /v1/payment_intents: payments
 * → catalog holds the unit), confirms it with the sandbox's `pm_card_visa` (POST …/confirm: the
 * charge, the unit sold, the payment and its ledger entries, `payment_intent.succeeded`), and
 * waits until ticketing, consuming that event, has issued the ticket, before its next order
 * (paid-orders.ts; when the ticket exists is read from ticketing's database, tickets-visible.ts).
 * A paid order's latency runs from its creation asked to its ticket seen. A warm-up of `warmup`
 * orders for an event of its own goes first, unmeasured, then the bench waits until the system is
 * quiet, as bench:onsale does. It prints paid orders per second, p50 and p99 latency and each
 * step's share, the CPU milliseconds per paid order of every process, and pgbench's rate for the
 * hot-row conditional update every sale rests on (support/hot-row.ts), measured 5 s just before
 * and 5 s after the measured orders, with the ratio to their mean. It fails unless every order
 * was paid, the tier sold exactly that many with none held, every sold unit has its ticket and
 * every paid intent its payment. Last, one JSON line:
 *
 *   {"paid_orders":…,"paid_orders_per_s":…,"p50_ms":…,"p99_ms":…,"concurrency":…,"pgbench_tps":…,"ratio":…,"cpu_ms_per_order":…}
 *
 *   npm run bench:checkout [-- --orders 1000 --concurrency 20 --warmup 1000 --cpu-prof]
 */
import { parseArgs } from 'node:util';
import { as, createAccount } from '../../e2e/support/api';
import { queryServiceDatabase } from '../../e2e/support/databases';
import { runBenchmark, startBenchSystem } from '../support/bench-system';
import { hotRowDatabase, pgbenchClients, pgbenchTps } from '../support/hot-row';
import { percentile } from '../support/percentile';
import { cpuSpent, printCpuPerUnit, settleAfterWarmup, snapshotCpu } from '../support/process-usage';
import { ticketsListed } from '../support/tickets-listed';
import { PaidOrders, type Checkout, type PaidOrder } from './paid-orders';
import { TicketsVisible } from './tickets-visible';

/** p50 and p99 of one span of the paid orders, in whole milliseconds. */
function spanPercentiles(paid: PaidOrder[], span: (order: PaidOrder) => number): { p50: number; p99: number } {
  const sorted = paid.map(span).sort((a, b) => a - b);
  return { p50: Math.round(percentile(sorted, 0.5)), p99: Math.round(percentile(sorted, 0.99)) };
}

function assertAllPaid(what: string, checkout: Checkout): void {
  if (checkout.failures.length === 0) return;
  const counts = new Map<string, number>();
  for (const failure of checkout.failures) counts.set(failure, (counts.get(failure) ?? 0) + 1);
  throw new Error(`${what}: ${checkout.failures.length} orders not paid with their tickets: ${[...counts].map(([failure, count]) => `${count} × ${failure}`).join('; ')}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      orders: { type: 'string', default: '1000' },
      concurrency: { type: 'string', default: '20' },
      warmup: { type: 'string', default: '1000' },
      'cpu-prof': { type: 'boolean', default: false },
    },
  });
  const orders = Number(values.orders);
  const concurrency = Number(values.concurrency);
  const warmup = Number(values.warmup);
  const system = await startBenchSystem({ cpuProfile: values['cpu-prof'] });
  const tickets = await TicketsVisible.connect();
  try {
    const { secret_key: key } = await createAccount('bench checkout');
    const api = as(key, system.gateway);
    const checkout = new PaidOrders(api, key, system.gateway, tickets);
    // Opened before the warm-up, as bench:onsale does: other operations between the warm-up and
    // the measured orders would meet code V8 optimised for orders alone and undo it.
    const measured = await checkout.open(orders);
    if (warmup > 0) {
      console.log(`warm-up: ${warmup} paid orders for an event of its own, ${concurrency} at a time, unmeasured`);
      assertAllPaid('warm-up', await checkout.buy(await checkout.open(warmup), warmup, concurrency));
    }
    await settleAfterWarmup(system.processGroups);
    const clients = pgbenchClients(concurrency);
    const hotRow = await hotRowDatabase();
    const tpsBefore = await pgbenchTps(hotRow, clients);

    console.log(`${orders} paid orders of 1 ticket (create, confirm with pm_card_visa, ticket issued), ${concurrency} buyers at a time, tier capacity ${orders}`);
    // The load generator and the tickets' poller run in this process; the poller's reads are in PostgreSQL's figure.
    const processGroups = [...system.processGroups, { name: 'buyers + poller (this one)', pids: () => [process.pid] }];
    const before = snapshotCpu(processGroups);
    const run = await checkout.buy(measured, orders, concurrency);
    const spent = cpuSpent(before, snapshotCpu(processGroups));

    const tier = (await api.get(`/v1/events/${measured.eventId}/tiers`)).body.data[0];
    const listed = await ticketsListed(api, measured.eventId);
    const intentIds = run.paid.map((order) => order.intentId);
    const payments = (await queryServiceDatabase<{ count: number }>('payments', 'SELECT count(*)::int AS count FROM payments WHERE payment_intent_id = ANY($1)', [intentIds]))[0]!.count;
    const tpsAfter = await pgbenchTps(hotRow, clients);
    const tps = (tpsBefore + tpsAfter) / 2;

    const paidPerSecond = run.paid.length / run.seconds;
    const latency = spanPercentiles(run.paid, (order) => order.visible - order.started);
    const create = spanPercentiles(run.paid, (order) => order.created - order.started);
    const confirm = spanPercentiles(run.paid, (order) => order.confirmed - order.created);
    const issue = spanPercentiles(run.paid, (order) => order.visible - order.confirmed);
    console.log(`\npaid ${run.paid.length} of ${orders} orders in ${run.seconds.toFixed(1)} s: ${paidPerSecond.toFixed(1)} paid orders/s`);
    console.log(`latency, creation asked → ticket seen: p50 ${latency.p50} ms, p99 ${latency.p99} ms`);
    console.log(`  create p50 ${create.p50} / p99 ${create.p99} ms; confirm p50 ${confirm.p50} / p99 ${confirm.p99} ms; confirmed → ticket seen p50 ${issue.p50} / p99 ${issue.p99} ms`);
    console.log(`tier after: capacity ${tier.capacity}, held ${tier.held}, sold ${tier.sold}; tickets listed ${listed}; payments recorded ${payments}`);
    console.log(
      `pgbench, the hot-row conditional update, ${clients} clients: ${tpsBefore.toFixed(0)} tps just before, ${tpsAfter.toFixed(0)} after, ` +
        `mean ${tps.toFixed(0)}; ratio ${(paidPerSecond / tps).toFixed(3)}`,
    );
    const cpuMsPerOrder = printCpuPerUnit('paid order', spent, run.paid.length);

    assertAllPaid('measured run', run);
    if (tier.sold !== run.paid.length || tier.held !== 0 || listed !== tier.sold || payments !== run.paid.length) {
      throw new Error(`expected ${run.paid.length} sold, none held, a ticket for each and a payment for each paid intent; got sold ${tier.sold}, held ${tier.held}, ${listed} tickets, ${payments} payments`);
    }
    const round = (value: number, digits: number) => Number(value.toFixed(digits));
    console.log(
      JSON.stringify({
        paid_orders: run.paid.length,
        paid_orders_per_s: round(paidPerSecond, 1),
        p50_ms: latency.p50,
        p99_ms: latency.p99,
        concurrency,
        pgbench_tps: round(tps, 0),
        ratio: round(paidPerSecond / tps, 3),
        cpu_ms_per_order: round(cpuMsPerOrder, 2),
      }),
    );
  } finally {
    await tickets.close();
    await system.stop();
  }
}

runBenchmark(main);
