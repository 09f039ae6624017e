/**
 * Gateway overhead benchmark: autocannon against GET /v1/account and GET /v1/events/{id}
 * through the whole system (gateway → Redis key cache → gRPC → service → Postgres), and against
 * a bare Node HTTP server answering a fixed JSON body, in the same run on the same machine.
 * Prints requests/s, p50 and p99 latency for each, and each target's ratio to the bare server.
 *
 *   npm run bench:gateway [-- --duration 10 --connections 50]
 */
import { createServer, type Server } from 'node:http';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { setup } from '../../tools/setup';
import { assertPortsFree, launchAll, stopServices, waitForSystem } from '../../tools/system/launch';
import { servicePorts } from '../../tools/system/services';
import { as, createAccount } from '../../e2e/support/api';

/** Its own copy of the system; 2000 would put the gateway on 10080, a port fetch refuses. */
const PORT_OFFSET = 3000;

interface Figures {
  target: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(target: string, url: string, headers: Record<string, string>, options: { duration: number; connections: number }): Promise<Figures> {
  const result = await autocannon({ url, headers, duration: options.duration, connections: options.connections });
  return { target, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

function startBareServer(): Promise<Server> {
  const body = JSON.stringify({ id: 'acct_bare', object: 'account', mode: 'test' });
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function printTable(rows: Figures[]): void {
  const bare = rows.find((row) => row.target === 'bare node http')!;
  console.log('\ntarget                     req/s      p50 ms   p99 ms   vs bare (req/s)   non-2xx');
  for (const row of rows) {
    console.log(
      `${row.target.padEnd(24)} ${row.requestsPerSecond.toFixed(0).padStart(8)} ${row.p50.toFixed(1).padStart(10)} ${row.p99.toFixed(1).padStart(8)} ${(
        row.requestsPerSecond / bare.requestsPerSecond
      )
        .toFixed(3)
        .padStart(17)} ${String(row.non2xx).padStart(9)}`,
    );
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } } });
  const options = { duration: Number(values.duration), connections: Number(values.connections) };

  await assertPortsFree(PORT_OFFSET);
  await setup();
  const running = launchAll({ portOffset: PORT_OFFSET, onOutput: () => undefined, env: { gateway: { LOG_LEVEL: 'warn' } } });
  const bare = await startBareServer();
  try {
    await waitForSystem(running, PORT_OFFSET);
    const gateway = `http://127.0.0.1:${servicePorts(PORT_OFFSET).gateway.PORT}`;
    const { secret_key: key } = await createAccount('bench');
    const event = await as(key, gateway).post('/v1/events', { name: 'Bench Night', starts_at: '2027-01-01T20:00:00Z' });
    const headers = { authorization: `Bearer ${key}` };
    const address = bare.address();
    const barePort = typeof address === 'object' && address ? address.port : 0;

    console.log(`autocannon: ${options.connections} connections, ${options.duration} s per target`);
    const rows = [
      await measure('bare node http', `http://127.0.0.1:${barePort}/`, {}, options),
      await measure('GET /v1/account', `${gateway}/v1/account`, headers, options),
      await measure('GET /v1/events/{id}', `${gateway}/v1/events/${event.body.id}`, headers, options),
    ];
    printTable(rows);
  } finally {
    bare.close();
    await stopServices(running);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
