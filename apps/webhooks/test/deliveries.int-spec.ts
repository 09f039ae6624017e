import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Tenant } from '@ticketing/auth';
import { ENDPOINT_DISABLED_EVENT, type DomainEventEnvelope } from '@ticketing/contracts';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { createTestDatabase, waitFor, type TestDatabase } from '@ticketing/testing';
import { Registry } from 'prom-client';
import { Webhook } from 'standardwebhooks';
import { createWebhooksPrisma, type PrismaClient } from '../src/db';
import { DeliveryDispatcher } from '../src/delivery/delivery-dispatcher';
import { DeliveryMetrics } from '../src/delivery/delivery-metrics';
import { SignedDelivery } from '../src/delivery/signed-delivery';
import { WebhookSender } from '../src/delivery/webhook-sender';
import type { DestinationSettings } from '../src/destinations/destination-policy';
import { RetrySchedule } from '../src/domain/retry-schedule';
import { DeliveryRepository } from '../src/repositories/delivery.repository';
import { EndpointSecrets, newSigningSecret } from '../src/secrets/endpoint-secrets';
import { AttemptDeliveryUseCase } from '../src/usecases/attempt-delivery/attempt-delivery.usecase';
import { CreateEndpointUseCase } from '../src/usecases/create-endpoint/create-endpoint.usecase';
import { DeleteEndpointUseCase } from '../src/usecases/delete-endpoint/delete-endpoint.usecase';
import { RecordNotificationUseCase } from '../src/usecases/record-notification/record-notification.usecase';
import { RotateEndpointSecretUseCase } from '../src/usecases/rotate-endpoint-secret/rotate-endpoint-secret.usecase';
import { UpdateEndpointUseCase } from '../src/usecases/update-endpoint/update-endpoint.usecase';

const secrets = new EndpointSecrets(Buffer.alloc(32, 7));
const localHttp: DestinationSettings = { allowLocalHttp: true };
const logger = createLogger('webhooks-test', 'silent');
const TIMEOUT_MS = 1000;
/** Longer than an attempt can take, short enough for a test to outwait. */
const LEASE_MS = TIMEOUT_MS + 1000;
const RETRY_DELAYS_MS = [300, 600];
const DAY_MS = 24 * 3600_000;
const settling = { timeoutMs: 10_000, intervalMs: 20 };

interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Date.now() when the request arrived. */
  at: number;
}

interface Answer {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

/** Answers with these statuses in turn, then with the last one for ever. */
const inTurn = (...statuses: number[]) => {
  let next = 0;
  return (): Answer => ({ status: statuses[Math.min(next++, statuses.length - 1)]! });
};

/** An HTTP receiver on 127.0.0.1 whose answers the test scripts; it records every request and the most it held open at once per path. */
async function startReceiver(answer: (request: ReceivedRequest) => Answer = () => ({ status: 200 })) {
  const requests: ReceivedRequest[] = [];
  const open = new Map<string, number>();
  const mostOpen = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((incoming, response) => {
    const at = Date.now();
    const requestPath = incoming.url ?? '';
    open.set(requestPath, (open.get(requestPath) ?? 0) + 1);
    mostOpen.set(requestPath, Math.max(mostOpen.get(requestPath) ?? 0, open.get(requestPath)!));
    response.on('close', () => open.set(requestPath, open.get(requestPath)! - 1));
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = { path: requestPath, headers: incoming.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), at };
      requests.push(request);
      const { status, delayMs = 0, headers = {} } = answer(request);
      const timer = setTimeout(() => {
        timers.delete(timer);
        response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ received: requestPath }));
      }, delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (endpointPath: string) => `http://127.0.0.1:${port}${endpointPath}`,
    port,
    requests,
    to: (endpointPath: string) => requests.filter((request) => request.path === endpointPath),
    mostOpen: (endpointPath: string) => mostOpen.get(endpointPath) ?? 0,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const verifies = (secret: string, request: ReceivedRequest) => {
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  }
};

const ticketIssued = (tenant: Tenant): DomainEventEnvelope => ({
  id: newId('msg'),
  type: 'ticket.issued',
  account_id: tenant.accountId,
  mode: tenant.mode,
  occurred_at: new Date().toISOString(),
  data: {
    event_id: newId('evt'),
    tier_id: newId('tier'),
    issuance_id: newId('iss'),
    customer_id: newId('cus'),
    ticket_ids: [newId('tkt'), newId('tkt')],
    amount: 9000,
    currency: 'EUR',
    kind: 'sale',
    discount_id: null,
    metadata: { order: 'A-1' },
  },
});

interface DispatcherSettings {
  delays?: number[];
  disableAfterMs?: number;
  concurrency?: number;
  perEndpoint?: number;
  destinations?: DestinationSettings;
  attempt?: typeof AttemptDeliveryUseCase;
}

/** Stands for a process that dies mid-attempt: the delivery is claimed, its attempt never recorded. */
class CrashingAttempt extends AttemptDeliveryUseCase {
  calls = 0;

  override async execute(): Promise<never> {
    this.calls += 1;
    throw new Error('the process died mid-attempt');
  }
}

/** Deliveries from the dispatcher to real HTTP on real PostgreSQL; domain events are fed to the use case directly, without Kafka. */
describe('webhook deliveries (real PostgreSQL, real HTTP)', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;
  const dispatchers: Array<{ stop(): Promise<void> }> = [];
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('webhooks', path.join(__dirname, '../prisma/migrations'));
    prisma = createWebhooksPrisma(database.url);
  });

  afterEach(async () => {
    await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    // A dispatcher serves every account: what a test left pending would be sent by the next test's.
    await prisma.webhookDelivery.updateMany({ where: { status: 'pending' }, data: { status: 'canceled', next_attempt_at: null } });
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await database.drop();
  });

  /** A fresh account per test, so no test sees another's rows. */
  const newTenant = (mode: Tenant['mode'] = 'test', accountId = newId('acct')): Tenant => ({ accountId, mode });

  const receiver = async (answer?: (request: ReceivedRequest) => Answer) => {
    const started = await startReceiver(answer);
    receivers.push(started);
    return started;
  };

  const createEndpoint = async (tenant: Tenant, url: string, enabledEvents = ['ticket.issued']) => {
    const endpoint = await new CreateEndpointUseCase(prisma, secrets, localHttp).execute(tenant, { url, enabled_events: enabledEvents, description: '', metadata: {} });
    return { ...endpoint, secret: secrets.open(endpoint.sealed_secret, endpoint.id) };
  };

  const record = (event: DomainEventEnvelope) => new RecordNotificationUseCase(prisma).execute(event);

  const startDispatcher = (settings: DispatcherSettings = {}) => {
    const sender = new WebhookSender(settings.destinations ?? localHttp, TIMEOUT_MS);
    const policy = { schedule: new RetrySchedule(settings.delays ?? RETRY_DELAYS_MS), disableAfterMs: settings.disableAfterMs ?? DAY_MS };
    const attempt = new (settings.attempt ?? AttemptDeliveryUseCase)(prisma, new SignedDelivery(sender, secrets), policy, logger);
    const metrics = new DeliveryMetrics(new Registry(), () => new DeliveryRepository(prisma).backlog());
    const options = { concurrency: settings.concurrency ?? 10, perEndpoint: settings.perEndpoint ?? 2, leaseMs: LEASE_MS, pollMs: 50 };
    const dispatcher = new DeliveryDispatcher(prisma, attempt, metrics, options, logger);
    dispatcher.start();
    const running = {
      attempt,
      /** How many attempts this dispatcher made, by outcome. */
      outcomes: async () => Object.fromEntries((await metrics.attempts.get()).values.map(({ labels, value }) => [labels.outcome, value])),
      stop: async () => {
        await dispatcher.stop();
        sender.close();
      },
    };
    dispatchers.push(running);
    return running;
  };

  const deliveriesTo = (endpointId: string) => prisma.webhookDelivery.findMany({ where: { endpoint_id: endpointId }, orderBy: { id: 'asc' } });
  const attemptsOf = (deliveryId: string) => prisma.webhookAttempt.findMany({ where: { delivery_id: deliveryId }, orderBy: { id: 'asc' } });

  /** The endpoint's deliveries once there are `count` and every one has `status`. */
  const settled = (endpointId: string, status: string, count = 1) =>
    waitFor(
      `${count} ${status} deliveries to ${endpointId}`,
      async () => {
        const rows = await deliveriesTo(endpointId);
        return rows.length === count && rows.every((row) => row.status === status) ? rows : undefined;
      },
      settling,
    );

  const arrivals = (target: Receiver, endpointPath: string, count: number) =>
    waitFor(`${count} requests to ${endpointPath}`, async () => (target.to(endpointPath).length >= count ? target.to(endpointPath) : undefined), settling);

  it('delivers a signed event to the enabled endpoints of its account and mode that subscribe to its type, and to no other', async () => {
    const tenant = newTenant();
    const hooks = await receiver();
    const subscribed = await createEndpoint(tenant, hooks.url('/subscribed'));
    const everything = await createEndpoint(tenant, hooks.url('/everything'), ['*']);
    const elsewhere = await createEndpoint(tenant, hooks.url('/elsewhere'), ['event.published']);
    const disabled = await createEndpoint(tenant, hooks.url('/disabled'));
    await new UpdateEndpointUseCase(prisma, localHttp).execute(tenant, { id: disabled.id, disabled: true });
    const stranger = await createEndpoint(newTenant(), hooks.url('/stranger'));
    // Live mode delivers over https only, never to this machine: a live endpoint can only show it gets no delivery row.
    const live = await createEndpoint(newTenant('live', tenant.accountId), 'https://hooks.example.com/live');

    const event = ticketIssued(tenant);
    expect(await record(event)).toBe(2);
    startDispatcher();

    const [delivered] = await settled(subscribed.id, 'succeeded');
    await settled(everything.id, 'succeeded');
    for (const [endpoint, endpointPath] of [
      [subscribed, '/subscribed'],
      [everything, '/everything'],
    ] as const) {
      const [request] = hooks.to(endpointPath);
      const body = JSON.parse(request!.body);
      expect(body).toEqual({ id: expect.stringMatching(/^ntf_/), type: 'ticket.issued', created_at: event.occurred_at, livemode: false, data: event.data });
      expect(request!.headers['webhook-id']).toBe(body.id);
      expect(request!.headers['content-type']).toBe('application/json');
      expect(() => new Webhook(endpoint.secret).verify(request!.body, request!.headers)).not.toThrow();
      expect(verifies(newSigningSecret(), request!)).toBe(false);
    }
    expect(delivered).toMatchObject({ notification_id: JSON.parse(hooks.to('/subscribed')[0]!.body).id, type: 'ticket.issued', attempt_count: 1, next_attempt_at: null });
    const attempts = await attemptsOf(delivered!.id);
    expect(attempts).toEqual([expect.objectContaining({ succeeded: true, http_status: 200, error: null, response_body: JSON.stringify({ received: '/subscribed' }) })]);
    expect(attempts[0]!.latency_ms).toBeGreaterThanOrEqual(0);
    expect(attempts[0]!.latency_ms).toBeLessThan(TIMEOUT_MS);

    for (const endpoint of [elsewhere, disabled, stranger, live]) expect(await deliveriesTo(endpoint.id)).toEqual([]);
    expect(hooks.requests.map((request) => request.path).sort()).toEqual(['/everything', '/subscribed']);
  });

  it('tries a failing delivery again after each delay of the schedule until it succeeds', async () => {
    const hooks = await receiver(inTurn(500, 500, 200));
    const tenant = newTenant();
    const endpoint = await createEndpoint(tenant, hooks.url('/hook'));
    await record(ticketIssued(tenant));
    startDispatcher();

    const [delivery] = await settled(endpoint.id, 'succeeded');
    expect(delivery).toMatchObject({ attempt_count: 3, next_attempt_at: null });
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map(({ succeeded, http_status, error }) => ({ succeeded, http_status, error }))).toEqual([
      { succeeded: false, http_status: 500, error: 'the endpoint answered 500' },
      { succeeded: false, http_status: 500, error: 'the endpoint answered 500' },
      { succeeded: true, http_status: 200, error: null },
    ]);

    const requests = hooks.to('/hook');
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    const gaps = [requests[1]!.at - requests[0]!.at, requests[2]!.at - requests[1]!.at];
    // Each delay moves by up to a fifth either way; the dispatcher notices a due retry within its poll.
    expect(gaps[0]).toBeGreaterThanOrEqual(300 * 0.8 - 30);
    expect(gaps[0]).toBeLessThanOrEqual(300 * 1.2 + 250);
    expect(gaps[1]).toBeGreaterThanOrEqual(600 * 0.8 - 30);
    expect(gaps[1]).toBeLessThanOrEqual(600 * 1.2 + 250);
    expect(gaps[1]).toBeGreaterThan(gaps[0]!);
  });

  it('fails a delivery for good once every attempt of the schedule failed', async () => {
    const hooks = await receiver(() => ({ status: 503 }));
    const tenant = newTenant();
    const endpoint = await createEndpoint(tenant, hooks.url('/hook'));
    await record(ticketIssued(tenant));
    startDispatcher();

    const [delivery] = await settled(endpoint.id, 'failed');
    expect(delivery).toMatchObject({ attempt_count: RETRY_DELAYS_MS.length + 1, next_attempt_at: null });
    expect((await attemptsOf(delivery!.id)).map((attempt) => attempt.http_status)).toEqual([503, 503, 503]);
    expect(hooks.to('/hook')).toHaveLength(3);
  });

  it('sends the retry from a new dispatcher after a restart: the schedule lives in the database', async () => {
    const hooks = await receiver(inTurn(500, 200));
    const tenant = newTenant();
    const endpoint = await createEndpoint(tenant, hooks.url('/hook'));
    await record(ticketIssued(tenant));
    const before = startDispatcher({ delays: [600] });

    await waitFor('the first attempt recorded', async () => ((await deliveriesTo(endpoint.id))[0]?.attempt_count === 1 ? true : undefined), settling);
    await before.stop();
    expect(await deliveriesTo(endpoint.id)).toEqual([expect.objectContaining({ status: 'pending', attempt_count: 1 })]);
    expect(await before.outcomes()).toEqual({ failed: 1 });

    const after = startDispatcher({ delays: [600] });
    await settled(endpoint.id, 'succeeded');
    expect(await after.outcomes()).toEqual({ succeeded: 1 });
    const requests = hooks.to('/hook');
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id']);
  });

  it('sends a delivery whose attempt was never recorded once its lease ends, from another dispatcher', async () => {
    const hooks = await receiver();
    const tenant = newTenant();
    const endpoint = await createEndpoint(tenant, hooks.url('/hook'));
    await record(ticketIssued(tenant));
    const claimedAt = Date.now();
    const crashed = startDispatcher({ attempt: CrashingAttempt });
    await waitFor('the claim', async () => ((crashed.attempt as CrashingAttempt).calls > 0 ? true : undefined), settling);
    await crashed.stop();
    const [leased] = await deliveriesTo(endpoint.id);
    expect(leased).toMatchObject({ status: 'pending', attempt_count: 0 });
    const leaseEnds = leased!.next_attempt_at!.getTime();
    expect(leaseEnds - claimedAt).toBeGreaterThanOrEqual(LEASE_MS - 50);
    expect((crashed.attempt as CrashingAttempt).calls).toBe(1);

    startDispatcher();
    const [delivery] = await settled(endpoint.id, 'succeeded');
    expect(delivery!.attempt_count).toBe(1);
    const [request, ...more] = hooks.to('/hook');
    expect(more).toEqual([]);
    expect(request!.at).toBeGreaterThanOrEqual(leaseEnds - 20);
  });

  it('keeps a slow endpoint to its share of the attempts, so another endpoint is not delayed', async () => {
    const hooks = await receiver((request) => (request.path === '/slow' ? { status: 200, delayMs: 3000 } : { status: 200 }));
    const slowTenant = newTenant();
    const fastTenant = newTenant();
    const slow = await createEndpoint(slowTenant, hooks.url('/slow'));
    const fast = await createEndpoint(fastTenant, hooks.url('/fast'));
    // More slow deliveries than the dispatcher has slots, all older than the fast one.
    for (let i = 0; i < 12; i += 1) await record(ticketIssued(slowTenant));
    await record(ticketIssued(fastTenant));

    const started = Date.now();
    startDispatcher({ concurrency: 10, perEndpoint: 2 });
    await settled(fast.id, 'succeeded');
    const [fastRequest] = hooks.to('/fast');
    expect(fastRequest!.at - started).toBeLessThan(1000);
    expect(hooks.to('/slow')).toHaveLength(2);
    const slowDeliveries = await deliveriesTo(slow.id);
    expect(slowDeliveries).toHaveLength(12);
    expect(slowDeliveries.every((delivery) => delivery.status === 'pending' && delivery.attempt_count === 0)).toBe(true);

    // The two slow attempts time out and the next two take their place, never more at once.
    await arrivals(hooks, '/slow', 4);
    expect(hooks.mostOpen('/slow')).toBe(2);
  });

  it('signs with the old and the new secret while a rotation overlaps, and with the new one alone after', async () => {
    const hooks = await receiver();
    const tenant = newTenant();
    const endpoint = await createEndpoint(tenant, hooks.url('/hook'));
    const rotate = new RotateEndpointSecretUseCase(prisma, secrets);
    const rotated = await rotate.execute(tenant, endpoint.id);
    const newSecret = secrets.open(rotated.sealed_secret, endpoint.id);
    await record(ticketIssued(tenant));
    startDispatcher();

    const [overlapping] = await arrivals(hooks, '/hook', 1);
    const signatures = overlapping!.headers['webhook-signature']!.split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((signature) => signature.startsWith('v1,'))).toBe(true);
    expect(verifies(endpoint.secret, overlapping!)).toBe(true);
    expect(verifies(newSecret, overlapping!)).toBe(true);

    // Rotated two days ago: the secret it replaced stopped signing a day ago.
    const latest = await rotate.execute(tenant, endpoint.id, new Date(Date.now() - 2 * DAY_MS));
    await record(ticketIssued(tenant));
    const [, afterOverlap] = await arrivals(hooks, '/hook', 2);
    expect(afterOverlap!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifies(secrets.open(latest.sealed_secret, endpoint.id), afterOverlap!)).toBe(true);
    expect(verifies(newSecret, afterOverlap!)).toBe(false);
  });

  it('ends the failing streak of an endpoint with a success', async () => {
    const hooks = await receiver(inTurn(500, 200));
    const tenant = newTenant();
    const endpoint = await createEndpoint(tenant, hooks.url('/hook'));
    await record(ticketIssued(tenant));
    startDispatcher({ delays: [600] });

    const failing = await waitFor('the failing streak', async () => (await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).failing_since ?? undefined, settling);
    expect(Date.now() - failing.getTime()).toBeLessThan(5000);
    await settled(endpoint.id, 'succeeded');
    expect(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).toMatchObject({ failing_since: null, disabled_reason: null });
  });

  it('disables an endpoint failing for too long, cancels what it still had, and tells the account through its other endpoints', async () => {
    const hooks = await receiver((request) => ({ status: request.path === '/failing' ? 500 : 200 }));
    const tenant = newTenant();
    const failing = await createEndpoint(tenant, hooks.url('/failing'), ['*']);
    const watcher = await createEndpoint(tenant, hooks.url('/watcher'), [ENDPOINT_DISABLED_EVENT]);
    const stranger = await createEndpoint(newTenant(), hooks.url('/stranger'), ['*']);
    for (let i = 0; i < 3; i += 1) await record(ticketIssued(tenant));
    startDispatcher({ disableAfterMs: 0, perEndpoint: 1 });

    await settled(watcher.id, 'succeeded');
    await settled(failing.id, 'canceled', 3);
    expect(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: failing.id } })).toMatchObject({ disabled_reason: 'failing', failing_since: expect.any(Date) });
    expect(hooks.to('/failing')).toHaveLength(1);
    const failed = await prisma.webhookAttempt.findMany({ where: { delivery: { endpoint_id: failing.id } } });
    expect(failed).toEqual([expect.objectContaining({ succeeded: false, http_status: 500 })]);

    const [notice] = hooks.to('/watcher');
    expect(JSON.parse(notice!.body)).toEqual({
      id: expect.stringMatching(/^ntf_/),
      type: ENDPOINT_DISABLED_EVENT,
      created_at: failed[0]!.attempted_at.toISOString(),
      livemode: false,
      data: { endpoint_id: failing.id, url: failing.url, reason: 'failing' },
    });
    expect(verifies(watcher.secret, notice!)).toBe(true);
    expect(await deliveriesTo(stranger.id)).toEqual([]);
    expect(hooks.to('/stranger')).toEqual([]);
  });

  it('cancels the pending delivery of a deleted endpoint without sending it', async () => {
    const hooks = await receiver();
    const tenant = newTenant();
    const endpoint = await createEndpoint(tenant, hooks.url('/hook'));
    await record(ticketIssued(tenant));
    await new DeleteEndpointUseCase(prisma).execute(tenant, endpoint.id);
    const running = startDispatcher();

    const [delivery] = await settled(endpoint.id, 'canceled');
    expect(delivery).toMatchObject({ attempt_count: 0, next_attempt_at: null });
    expect(await attemptsOf(delivery!.id)).toEqual([]);
    expect(await running.outcomes()).toEqual({ canceled: 1 });
    expect(hooks.requests).toEqual([]);
  });

  it('refuses at send time a destination the deployment no longer allows', async () => {
    const hooks = await receiver();
    const tenant = newTenant();
    const literal = await createEndpoint(tenant, hooks.url('/literal'));
    const named = await createEndpoint(tenant, `http://localhost:${hooks.port}/named`);
    await record(ticketIssued(tenant));
    startDispatcher({ destinations: { allowLocalHttp: false }, delays: [] });

    const [literalDelivery] = await settled(literal.id, 'failed');
    const [namedDelivery] = await settled(named.id, 'failed');
    expect(await attemptsOf(literalDelivery!.id)).toEqual([
      expect.objectContaining({ succeeded: false, http_status: null, error: 'webhook destination 127.0.0.1 is a loopback address', response_body: null }),
    ]);
    expect(await attemptsOf(namedDelivery!.id)).toEqual([
      expect.objectContaining({ succeeded: false, http_status: null, error: expect.stringMatching(/^webhook destination localhost resolves to .+, a loopback address$/) }),
    ]);
    expect(hooks.requests).toEqual([]);
  });

  it('schedules nothing more when the same event is recorded again', async () => {
    const hooks = await receiver();
    const tenant = newTenant();
    const endpoint = await createEndpoint(tenant, hooks.url('/hook'));
    const event = ticketIssued(tenant);
    expect(await record(event)).toBe(1);
    expect(await record(event)).toBeNull();
    startDispatcher();

    await settled(endpoint.id, 'succeeded');
    expect(await record(event)).toBeNull();
    expect(await prisma.notification.count({ where: { source_event_id: event.id } })).toBe(1);
    expect(await deliveriesTo(endpoint.id)).toHaveLength(1);
    expect(hooks.requests).toHaveLength(1);
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    const hooks = await receiver((request) => (request.path === '/moved' ? { status: 302, headers: { location: hooks.url('/elsewhere') } } : { status: 200 }));
    const tenant = newTenant();
    const endpoint = await createEndpoint(tenant, hooks.url('/moved'));
    await record(ticketIssued(tenant));
    startDispatcher({ delays: [] });

    const [delivery] = await settled(endpoint.id, 'failed');
    expect(await attemptsOf(delivery!.id)).toEqual([expect.objectContaining({ succeeded: false, http_status: 302, error: 'the endpoint answered 302' })]);
    expect(hooks.to('/elsewhere')).toEqual([]);
  });

  it('measures the queue: how many deliveries are due and how long the oldest has waited', async () => {
    const hooks = await receiver();
    const tenant = newTenant();
    const endpoint = await createEndpoint(tenant, hooks.url('/hook'));
    await record(ticketIssued(tenant));
    await record(ticketIssued(tenant));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const waiting = await new DeliveryRepository(prisma).backlog();
    expect(waiting.due).toBe(2);
    expect(waiting.oldestDueSeconds).toBeGreaterThanOrEqual(0.04);
    startDispatcher();

    await settled(endpoint.id, 'succeeded', 2);
    expect(await new DeliveryRepository(prisma).backlog()).toEqual({ due: 0, oldestDueSeconds: 0 });
  });

  it('schedules one delivery to each of as many endpoints as an account may have', async () => {
    const tenant = newTenant();
    const endpoints = await Promise.all(Array.from({ length: 16 }, (_, index) => createEndpoint(tenant, `http://127.0.0.1:9/hook/${index}`, ['*'])));
    expect(await record(ticketIssued(tenant))).toBe(16);
    const scheduled = await prisma.webhookDelivery.findMany({ where: { account_id: tenant.accountId } });
    expect(new Set(scheduled.map((delivery) => delivery.endpoint_id))).toEqual(new Set(endpoints.map((endpoint) => endpoint.id)));
    expect(new Set(scheduled.map((delivery) => delivery.id)).size).toBe(16);
  });
});
