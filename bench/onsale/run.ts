/**
 * On-sale benchmark: autocannon sends issuance requests (POST /v1/events/{id}/tickets, one ticket
 * each, every one another buyer) at a fixed concurrency for a tier of `capacity`, by default
 * 20 % more requests than the capacity, through the whole system (gateway → ticketing → catalog
 * → PostgreSQL). A warm-up on-sale of `warmup` sales for an event of its own goes first,
 * unmeasured, so the measured one meets processes whose code V8 has optimised, as a running
 * deployment's is (bench:gateway warms up likewise): much of a sale's code runs once per batch,
 * a tenth as often as per sale, and after 1,000 sales V8 had not finished with it. Then the bench
 * waits until the warm-up's leftovers (webhooks recording its events, relays flushing) are done
 * (under `--cpu-prof`, whose sampling keeps every process busy, that wait runs to its 30 s limit).
 * It prints tickets issued per second, p50 and p99 latency, how the requests ended, and the CPU
 * milliseconds per issued ticket of every process; then checks that exactly the capacity was
 * sold. In the same run, pgbench measures PostgreSQL's own rate for the single-row conditional
 * update every sale rests on (`UPDATE … SET held = held + 1 WHERE held + sold + 1 <= capacity`,
 * one row, the same concurrency up to 50 clients), the baseline the issuance rate is compared
 * with: for 5 s just before the measured on-sale (the system idle) and 5 s after it has settled,
 * against the mean of the two, so that the machine's speed drifting during the run moves both
 * sides of the ratio alike. Beside it, the sale floor: the same request through Express 5 and two
 * gRPC hops, each batched as the sale's are, to that update, with none of a sale's own work
 * (floor/*.mjs): about the most this stack could sell on this machine. Then the CPU budget the
 * goal leaves a sale (ratio 0.5: two cores' milliseconds a second over half of pgbench's rate),
 * beside what this run's sales and the floor's requests cost. Last, one JSON
 * line:
 *
 *   {"issued":…,"capacity":…,"issued_per_s":…,"pgbench_tps":…,"ratio":…,"p99_ms":…,"floor_per_s":…,"floor_ratio":…,
 *    "cpu_ms_per_sale":…,"budget_ms_per_sale":…,"floor_cpu_ms_per_request":…}
 *
 *   npm run bench:onsale [-- --capacity 2000 --requests 2400 --connections 50 --warmup 10000 --cpu-prof --idempotency-keys]
 *
 * With `--idempotency-keys` every request carries its own Idempotency-Key, as a client that
 * retries safely sends it: each sale is then also the recorded write of its key.
 *
 * The issue's rush (2,000 requests at once for 500 tickets) is
 *   npm run bench:onsale -- --capacity 500 --requests 2000 --connections 2000
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { as, createAccount } from '../../e2e/support/api';
import { runBenchmark, startBenchSystem } from '../support/bench-system';
import { startBaselineServer, type BaselineServer } from '../support/baseline-server';
import { hotRowDatabase, pgbenchClients, pgbenchTps } from '../support/hot-row';
import { cpuSpent, pidsNamed, printCpuPerUnit, settleAfterWarmup, snapshotCpu, type ProcessGroup } from '../support/process-usage';
import { ticketsListed } from '../support/tickets-listed';

const PRICE = 2500;
const FLOOR_SECONDS = 5;
const FLOOR_WARMUP_SECONDS = 2;
/** The goal: issued tickets per second at least this share of pgbench's transactions per second. */
const GOAL_RATIO = 0.5;

interface Options {
  capacity: number;
  /** Issuance requests in all; more than the capacity, so the tier sells out. */
  requests: number;
  connections: number;
  /** Sales made first, for an event of their own and unmeasured, so the measured run meets warm processes. */
  warmup: number;
}

/**
 * The sale floor: the least a sale shaped as ours can cost with this stack, measured on this
 * machine in this run. The issuance requests of one turn go through Express 5 and one gRPC call,
 * as the gateway sends them to ticketing; the middle hop sends the sales that arrive together on
 * as one, as ticketing batches its holds, and the last runs the conditional update once per
 * batch; nothing else (floor/*.mjs). Warmed up as the services are, then measured: its requests per second at
 * `connections`, and the CPU milliseconds per request of every process it ran on (its three
 * servers, PostgreSQL and this process, the load generator).
 */
async function saleFloor(url: string, body: string, connections: number): Promise<{ perSecond: number; cpuMsPerRequest: number }> {
  const floor = (script: string, ...args: string[]) => startBaselineServer(path.join(__dirname, 'floor', script), ...args);
  const servers: BaselineServer[] = [];
  try {
    servers.push(await floor('catalog.mjs', url));
    servers.push(await floor('ticketing.mjs', String(servers[0]!.port)));
    servers.push(await floor('gateway.mjs', String(servers[1]!.port)));
    const load = (duration: number) =>
      autocannon({ url: `http://127.0.0.1:${servers[2]!.port}/v1/events/evt_floor/tickets`, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections, duration });
    await load(FLOOR_WARMUP_SECONDS);
    const processes: ProcessGroup[] = [
      { name: 'floor', pids: () => servers.map((server) => server.child.pid!) },
      { name: 'postgres', pids: () => pidsNamed('postgres') },
      { name: 'autocannon', pids: () => [process.pid] },
    ];
    const before = snapshotCpu(processes);
    const result = await load(FLOOR_SECONDS);
    const spent = [...cpuSpent(before, snapshotCpu(processes)).values()].reduce((sum, ms) => sum + ms, 0);
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`the sale floor answered ${result.non2xx} non-2xx and ${result.errors} errors`);
    return { perSecond: result.requests.average, cpuMsPerRequest: spent / result.requests.total };
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
  }
}

/** An issuance request's body: one ticket for buyer number `buyer`, paid elsewhere. */
const saleBody = (tierId: string, buyer: number) =>
  JSON.stringify({ tier_id: tierId, quantity: 1, customer: { email: `fan${buyer}@example.com` }, payment: { type: 'external', reference: 'bench', amount: PRICE } });

/** A published event and its one tier, opened by OnSales.open. */
interface OnSale {
  event: { id: string };
  tier: { id: string };
}

/**
 * Sells out tiers through the gateway: `open` creates a published event with one tier of
 * `capacity`, and `sellOut` sends `requests` issuance requests at it, every one another buyer, as
 * in a real on-sale (each sale creates its customer). `sellOut` answers when the last request was
 * answered, with the run's time to that answer and the CPU each process spent meanwhile.
 */
class OnSales {
  private buyer = 0;

  constructor(
    private readonly api: ReturnType<typeof as>,
    private readonly key: string,
    private readonly gateway: string,
    private readonly keyed: boolean,
    private readonly connections: number,
    private readonly processGroups: ProcessGroup[],
  ) {}

  /** A published event with one tier of `capacity` tickets, on sale. */
  async open(capacity: number): Promise<OnSale> {
    const event = (await this.api.post('/v1/events', { name: 'Bench on-sale', starts_at: '2099-01-01T20:00:00Z', currency: 'EUR' })).body;
    const tier = (await this.api.post(`/v1/events/${event.id}/tiers`, { name: 'GA', price: PRICE, capacity })).body;
    await this.api.patch(`/v1/events/${event.id}`, { status: 'published' });
    return { event, tier };
  }

  async sellOut({ event, tier }: OnSale, requests: number) {
    const nextRequest = (request: autocannon.Request): autocannon.Request => {
      this.buyer += 1;
      const body = saleBody(tier.id, this.buyer);
      return { ...request, body, headers: this.keyed ? { ...request.headers, 'idempotency-key': `bench-${event.id}-${this.buyer}` } : request.headers };
    };
    const before = snapshotCpu(this.processGroups);
    const started = performance.now();
    // autocannon finishes on its next one-second tick after the last answer; the run ends at that answer.
    let lastAnswer = started;
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const run = autocannon(
        {
          url: `${this.gateway}/v1/events/${event.id}/tickets`,
          method: 'POST',
          headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' },
          requests: [{ setupRequest: nextRequest }],
          // autocannon opens no more connections than it sends requests (a short warm-up of a rush).
          connections: Math.min(this.connections, requests),
          amount: requests,
        },
        (error: unknown, finished) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(finished)),
      );
      run.on('response', () => {
        lastAnswer = performance.now();
      });
    });
    const seconds = (lastAnswer - started) / 1000;
    return { event, tier, result, seconds, spent: cpuSpent(before, snapshotCpu(this.processGroups)) };
  }
}

/** How long to wait, after the load, for issuances answered past the gateway's deadline to finish. */
const SETTLE_TIMEOUT_MS = 60_000;

/**
 * The tier once nothing is held. An issuance the gateway answered with a 5xx (its deadline
 * passed) is still under way in ticketing, and finishes, or is refused, a moment later.
 */
async function settledTier(api: ReturnType<typeof as>, eventId: string): Promise<{ capacity: number; held: number; sold: number }> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const tier = (await api.get(`/v1/events/${eventId}/tiers`)).body.data[0];
    if (tier.held === 0 || Date.now() > deadline) return tier;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      capacity: { type: 'string', default: '2000' },
      requests: { type: 'string' },
      connections: { type: 'string', default: '50' },
      warmup: { type: 'string', default: '10000' },
      'cpu-prof': { type: 'boolean', default: false },
      'idempotency-keys': { type: 'boolean', default: false },
    },
  });
  const capacity = Number(values.capacity);
  const options: Options = { capacity, requests: values.requests ? Number(values.requests) : Math.ceil(capacity * 1.2), connections: Number(values.connections), warmup: Number(values.warmup) };
  const system = await startBenchSystem({ cpuProfile: values['cpu-prof'] });
  try {
    const { secret_key: key } = await createAccount('bench');
    const api = as(key, system.gateway);
    const keyed = values['idempotency-keys'];
    const processGroups = [...system.processGroups, { name: 'autocannon (this process)', pids: () => [process.pid] }];
    const sales = new OnSales(api, key, system.gateway, keyed, options.connections, processGroups);
    // Opened before the warm-up: requests of other operations between the warm-up and the measured
    // sales (creating and publishing the event) would otherwise meet code V8 optimised for sales
    // alone, undo it, and leave the measured sales to pay for optimising it again.
    const measured = await sales.open(options.capacity);
    if (options.warmup > 0) {
      // The measured run's mix of sales and refusals, so that the refusals' code is warm too.
      const warmupCapacity = Math.round((options.warmup * options.capacity) / options.requests);
      console.log(`warm-up: ${options.warmup} issuance requests for an event of its own with ${warmupCapacity} tickets, unmeasured`);
      await sales.sellOut(await sales.open(warmupCapacity), options.warmup);
    }
    // What the warm-up left behind (webhooks recording its events, relays flushing) must not count against the measured sales.
    await settleAfterWarmup(system.processGroups);
    const clients = pgbenchClients(options.connections);
    const hotRow = await hotRowDatabase();
    const tpsBefore = await pgbenchTps(hotRow, clients);
    const { requests } = options;
    console.log(`autocannon: ${requests} issuance requests of 1 ticket${keyed ? ', each under its own Idempotency-Key' : ''}, ${options.connections} connections, tier capacity ${options.capacity}`);
    const { event, tier, result, seconds, spent } = await sales.sellOut(measured, requests);

    const counters = await settledTier(api, event.id);
    const issued = await ticketsListed(api, event.id);
    const tpsAfter = await pgbenchTps(hotRow, clients);
    const tps = (tpsBefore + tpsAfter) / 2;
    // The rate counts the sales answered 200 within the run; one a 5xx left unanswered sold too, later.
    const answered = result['2xx'];
    const floor = await saleFloor(hotRow, saleBody(tier.id, 0), options.connections);
    const issuedPerSecond = answered / seconds;

    console.log(`\nissued ${answered} of ${options.capacity} in ${seconds.toFixed(1)} s: ${issuedPerSecond.toFixed(0)} tickets/s`);
    if (issued !== answered) console.log(`${issued - answered} more sold after their request was answered with a 5xx (unknown outcome): issued ${issued} in all`);
    console.log(`responses: ${result['2xx']} 2xx, ${result['4xx']} 4xx (sold out), ${result['5xx']} 5xx, ${result.errors} errors, ${result.timeouts} timeouts`);
    console.log(`latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`);
    console.log(`tier after: capacity ${counters.capacity}, held ${counters.held}, sold ${counters.sold}`);
    console.log(
      `pgbench, the same conditional update on one row, ${clients} clients: ${tpsBefore.toFixed(0)} tps just before, ${tpsAfter.toFixed(0)} after, ` +
        `mean ${tps.toFixed(0)}; ratio ${(issuedPerSecond / tps).toFixed(3)}`,
    );
    console.log(`sale floor (Express → batched gRPC → batched gRPC → that update, no other work), ${options.connections} connections: ${floor.perSecond.toFixed(0)} requests/s; ratio ${(floor.perSecond / tps).toFixed(3)}`);
    const cpuMsPerSale = printCpuPerUnit('issued ticket', spent, issued);
    // Two cores selling at GOAL_RATIO × pgbench's rate have this much CPU for each sale, in every process together.
    const budgetMsPerSale = (availableParallelism() * 1000) / (GOAL_RATIO * tps);
    console.log(
      `\nCPU budget of a sale at ratio ${GOAL_RATIO} (${availableParallelism()} cores, ${tps.toFixed(0)} tps): ${budgetMsPerSale.toFixed(2)} ms in all; ` +
        `this run's sales ${cpuMsPerSale.toFixed(2)} ms; the sale floor's requests ${floor.cpuMsPerRequest.toFixed(2)} ms (its servers, PostgreSQL and the load generator)`,
    );
    if (issued !== options.capacity || counters.sold !== options.capacity || counters.held !== 0) {
      throw new Error(`expected exactly ${options.capacity} sold and none held; got ${issued} tickets, sold ${counters.sold}, held ${counters.held}`);
    }
    const round = (value: number, digits: number) => Number(value.toFixed(digits));
    console.log(
      JSON.stringify({
        issued,
        capacity: options.capacity,
        issued_per_s: round(issuedPerSecond, 1),
        pgbench_tps: round(tps, 0),
        ratio: round(issuedPerSecond / tps, 3),
        p99_ms: result.latency.p99,
        floor_per_s: round(floor.perSecond, 0),
        floor_ratio: round(floor.perSecond / tps, 3),
        cpu_ms_per_sale: round(cpuMsPerSale, 2),
        budget_ms_per_sale: round(budgetMsPerSale, 2),
        floor_cpu_ms_per_request: round(floor.cpuMsPerRequest, 2),
      }),
    );
  } finally {
    await system.stop();
  }
}

runBenchmark(main);
