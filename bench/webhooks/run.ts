/**
 * `npm run bench:webhooks [-- --rate 400 --endpoints 3 --duration 10 --warmup 3 --cpu-prof]`
 *
 * Starts its own copy of the system (bench-system.ts), creates an account with `--endpoints`
 * test-mode endpoints on a receiver in this process (every endpoint subscribed to
 * `organization.updated`, answering 204 at once), then produces `organization.updated` domain
 * events straight into Kafka (catalog.organization.v1, as catalog's outbox relay would; only the
 * webhooks service consumes that topic, so no other consumer's work is counted) at `--rate` a second for
 * `--duration` seconds, after `--warmup` seconds of the same load whose deliveries are not
 * counted: each event becomes one delivery per endpoint. It prints deliveries per second (from
 * the first measured event produced to the last delivery), the time from each event's
 * commit (its `occurred_at`, set as it is produced) to its arrival, p50 and p99, the CPU
 * milliseconds per delivery of every process, and last one JSON line:
 * {"deliveries_per_s":…,"p99_ms":…,"p50_ms":…,"deliveries":…}. Goal (issue 12): ≥ 1,000
 * deliveries/s with p99 ≤ 1 s on 2 cores.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { CATALOG_ORGANIZATION_TOPIC, type DomainEventEnvelope } from '@ticketing/contracts';
import { newId } from '@ticketing/ids';
import { createKafka, createProducer, ensureTopics, eventHeaders } from '@ticketing/kafka';
import { createLogger } from '@ticketing/observability';
import { as, createAccount } from '../../e2e/support/api';
import { runBenchmark, startBenchSystem } from '../support/bench-system';
import { percentile } from '../support/percentile';
import { cpuSpent, snapshotCpu } from '../support/process-usage';

/** Events are produced in batches this often, `rate / (1000 / BATCH_EVERY_MS)` at a time. */
const BATCH_EVERY_MS = 50;
/** How long to wait, after the last event is produced, for its deliveries. */
const DRAIN_TIMEOUT_MS = 60_000;

/** Receives deliveries, noting when each notification reached each endpoint and how long after its commit. */
class Receiver {
  /** Deliveries of events produced before this (the warm-up) are answered but not counted. */
  measuredFrom = Infinity;
  readonly latenciesMs: number[] = [];
  private readonly seen = new Set<string>();
  duplicates = 0;
  lastArrival = 0;
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrived = Date.now();
      response.writeHead(204).end();
      const delivery = `${request.url} ${String(request.headers['webhook-id'])}`;
      if (this.seen.has(delivery)) {
        this.duplicates += 1;
        return;
      }
      this.seen.add(delivery);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { created_at: string };
      const committed = Date.parse(body.created_at);
      if (committed < this.measuredFrom) return;
      this.latenciesMs.push(arrived - committed);
      this.lastArrival = arrived;
    });
  });

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function organizationUpdated(accountId: string, organizationId: string): DomainEventEnvelope {
  return {
    id: newId('msg'),
    type: 'organization.updated',
    account_id: accountId,
    mode: 'test',
    occurred_at: new Date().toISOString(),
    data: { organization_id: organizationId, name: 'Bench Promotions' },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '400' },
      endpoints: { type: 'string', default: '3' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      'cpu-prof': { type: 'boolean', default: false },
    },
  });
  const rate = Number(values.rate);
  const endpointCount = Number(values.endpoints);
  const seconds = Number(values.duration);
  const warmupSeconds = Number(values.warmup);
  const receiver = new Receiver();
  const port = await receiver.listen();
  const system = await startBenchSystem({ cpuProfile: values['cpu-prof'] });
  const kafka = createKafka({ clientId: 'bench-webhooks', brokers: ['127.0.0.1:9092'], logger: createLogger('bench', 'warn') });
  const producer = createProducer(kafka);
  try {
    const { account_id: accountId, secret_key: key } = await createAccount('bench webhooks');
    const api = as(key, system.gateway);
    for (let index = 0; index < endpointCount; index += 1) {
      const created = await api.post('/v1/webhook_endpoints', { url: `http://127.0.0.1:${port}/hook/${index}`, enabled_events: ['organization.updated'] });
      if (created.status !== 200) throw new Error(`could not create an endpoint: ${JSON.stringify(created.body)}`);
    }
    await ensureTopics(kafka, [CATALOG_ORGANIZATION_TOPIC.name]);
    await producer.connect();
    const organizationId = newId('org');
    const perBatch = Math.max(1, Math.round((rate * BATCH_EVERY_MS) / 1000));
    const batchesIn = (forSeconds: number) => Math.round((forSeconds * 1000) / BATCH_EVERY_MS);
    const expected = perBatch * batchesIn(seconds) * endpointCount;
    /** Produces `rate` events a second for `forSeconds`, in batches on a fixed beat. */
    const produce = async (forSeconds: number) => {
      const started = Date.now();
      for (let batch = 0; batch < batchesIn(forSeconds); batch += 1) {
        const messages = Array.from({ length: perBatch }, () => {
          const event = organizationUpdated(accountId, organizationId);
          return { key: organizationId, value: JSON.stringify(event), headers: eventHeaders(event) };
        });
        await producer.send({ topic: CATALOG_ORGANIZATION_TOPIC.name, messages });
        const due = started + (batch + 1) * BATCH_EVERY_MS;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      }
    };
    console.log(`producing organization.updated events, ${perBatch} every ${BATCH_EVERY_MS} ms, for ${endpointCount} endpoints: ${warmupSeconds} s unmeasured, then ${expected} deliveries measured`);
    await produce(warmupSeconds);

    const before = snapshotCpu(system.processGroups);
    const started = Date.now();
    receiver.measuredFrom = started;
    await produce(seconds);
    const drainDeadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (receiver.latenciesMs.length < expected && Date.now() < drainDeadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const spent = cpuSpent(before, snapshotCpu(system.processGroups));

    const delivered = receiver.latenciesMs.length;
    const deliveriesPerSecond = delivered / ((receiver.lastArrival - started) / 1000);
    const sorted = [...receiver.latenciesMs].sort((a, b) => a - b);
    const [p50, p99] = [percentile(sorted, 0.5), percentile(sorted, 0.99)];
    console.log(`\ndelivered ${delivered} of ${expected} in ${((receiver.lastArrival - started) / 1000).toFixed(1)} s: ${deliveriesPerSecond.toFixed(0)} deliveries/s (${receiver.duplicates} duplicates)`);
    console.log(`from commit to delivery: p50 ${p50} ms, p99 ${p99} ms, max ${sorted.at(-1)} ms`);
    console.log('\nCPU ms per delivery, by process');
    for (const [name, ms] of spent) console.log(`${name.padEnd(28)}${(delivered > 0 ? ms / delivered : 0).toFixed(3).padStart(10)}`);
    if (delivered < expected) throw new Error(`only ${delivered} of ${expected} deliveries arrived within ${DRAIN_TIMEOUT_MS / 1000} s of the last event`);
    console.log(JSON.stringify({ deliveries_per_s: Math.round(deliveriesPerSecond), p99_ms: p99, p50_ms: p50, deliveries: delivered }));
  } finally {
    await producer.disconnect();
    await system.stop();
    await receiver.close();
  }
}

runBenchmark(main);
