import { createServer } from 'node:net';
import { makeGenericClientConstructor, Server, ServerCredentials, type Client, type ServiceDefinition } from '@grpc/grpc-js';
import { ApiError } from '@ticketing/errors';
import { createGrpcClient, outageOf } from './client';
import { serviceCalls } from './service-calls';

const bytes = (value: Buffer) => value;
const pinger = {
  ping: { path: '/test.Pinger/Ping', requestStream: false, responseStream: false, requestSerialize: bytes, requestDeserialize: bytes, responseSerialize: bytes, responseDeserialize: bytes },
} satisfies ServiceDefinition;
const Pinger = makeGenericClientConstructor(pinger, 'Pinger');

const claims = { tenant: { account_id: 'acct_1', mode: 'test' as const }, request_id: 'req_1' };
const OUTAGE_AFTER_MS = 500;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startPinger(port: number): Promise<Server> {
  const server = new Server();
  server.addService(pinger, { ping: (call: { request: Buffer }, callback: (error: null, answer: Buffer) => void) => callback(null, call.request) });
  await new Promise<number>((resolve, reject) => server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
  return server;
}

/** One ping through the client, with the deadline given; resolves to what came back or how it failed. */
async function ping(client: Client, deadlineMs: number): Promise<string> {
  const calls = serviceCalls(client as unknown as { ping: never }, claims, { tokenSecret: 'a-test-secret-of-enough-length', deadlineMs }) as unknown as { ping(request: Buffer): Promise<Buffer> };
  try {
    return (await calls.ping(Buffer.from('pong'))).toString();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('calls to a service that is down', () => {
  let port: number;
  let client: Client;
  const servers: Server[] = [];

  beforeEach(async () => {
    port = await freePort();
    client = createGrpcClient(Pinger, `127.0.0.1:${port}`, { outageAfterMs: OUTAGE_AFTER_MS });
  });

  afterEach(() => {
    client.close();
    for (const server of servers.splice(0)) server.forceShutdown();
  });

  it('wait their deadline while it may be restarting, then only a moment, unsent, until it is back', async () => {
    // The first call waits its whole deadline for the channel: the service may be restarting.
    const waitedFrom = Date.now();
    expect(await ping(client, 1_000)).toBe('service_unavailable');
    expect(Date.now() - waitedFrom).toBeGreaterThanOrEqual(900);

    // Unreached for longer than a restart takes: a call with a minute's deadline waits only
    // OUTAGE_WAIT_MS (2 s) for the channel, and is refused unsent (well inside the test's time).
    await until(() => outageOf(client)!.isDown);
    expect(await ping(client, 60_000)).toBe('service_unavailable');

    // A call that arrives just before the service is back still goes through.
    const arriving = ping(client, 60_000);
    servers.push(await startPinger(port));
    expect(await arriving).toBe('pong');
    expect(outageOf(client)!.isDown).toBe(false);
  }, 15_000);

  it('carry no error through a restart shorter than the outage bound', async () => {
    const first = await startPinger(port);
    expect(await ping(client, 5_000)).toBe('pong');
    first.forceShutdown();
    const during = ping(client, 5_000);
    servers.push(await startPinger(port));
    expect(await during).toBe('pong');
    expect(outageOf(client)!.isDown).toBe(false);
  });
});
