import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@ticketing/testing';
import { Webhook } from 'standardwebhooks';
import { activateLive, as, createAccount } from './support/api';
import { type Client, ids, walkList } from './support/lists';
import { onSale, sale } from './support/on-sale';
import { kill, restart } from './support/processes';

/** Retries a test can outwait: 1 s (±20 %) after the first failure, 2 s (±20 %) after the second. */
const QUICK_RETRIES = { WEBHOOK_RETRY_DELAYS_MS: '1000,2000' };
/** The floor of the jittered 2 s delay, less what one request's travel may differ from another's: the third attempt's least pause. */
const SECOND_DELAY_FLOOR_MS = 1600 - 50;

/** One request the receiver got, as it came over the wire. */
interface Arrival {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Date.now() when its first byte arrived. */
  at: number;
}

/**
 * An HTTP receiver on 127.0.0.1 that records every request and answers each path with the
 * statuses a test scripts, in turn, then the last one for ever (200 unless scripted).
 */
async function startReceiver() {
  const arrivals: Arrival[] = [];
  const scripts = new Map<string, number[]>();
  const server = http.createServer((incoming, response) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const path = incoming.url ?? '';
      arrivals.push({ path, headers: incoming.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), at });
      const script = scripts.get(path) ?? [200];
      const status = script.length > 1 ? script.shift()! : script[0]!;
      const answered = arrivals.filter((arrival) => arrival.path === path).length;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${answered}: ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    answer: (path: string, ...statuses: number[]) => scripts.set(path, statuses),
    to: (path: string) => arrivals.filter((arrival) => arrival.path === path),
    /** Resolves once `path` has had `count` requests, with them. */
    awaitArrivals: (path: string, count: number) =>
      waitFor(`${count} request(s) to ${path}`, async () => {
        const received = arrivals.filter((arrival) => arrival.path === path);
        return received.length >= count ? received : undefined;
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** The payload, once the reference library has verified the signature (it throws otherwise). */
const verified = (secret: string, arrival: Arrival): Record<string, any> => new Webhook(secret).verify(arrival.body, arrival.headers) as Record<string, any>;

interface Endpoint {
  id: string;
  secret: string;
}

async function createEndpoint(api: Client, url: string, enabledEvents: string[]): Promise<Endpoint> {
  const created = await api.post('/v1/webhook_endpoints', { url, enabled_events: enabledEvents });
  expect(created.status).toBe(200);
  return { id: created.body.id, secret: created.body.secret };
}

async function deliveries(api: Client, query = ''): Promise<Array<Record<string, any>>> {
  const listed = await api.get(`/v1/events/deliveries?limit=100${query ? `&${query}` : ''}`);
  expect({ query, status: listed.status }).toEqual({ query, status: 200 });
  return listed.body.data;
}

/** The endpoint's log once every delivery in it satisfies `done`, and there are `count` of them. */
const settledLog = (api: Client, endpointId: string, count: number, done: (delivery: Record<string, any>) => boolean) =>
  waitFor(`${count} settled deliveries to ${endpointId}`, async () => {
    const log = await deliveries(api, `endpoint_id=${endpointId}`);
    return log.length === count && log.every(done) ? log : undefined;
  });

const hasSucceeded = (delivery: Record<string, any>) => delivery.status === 'succeeded';

/** Ids as a newest-first list orders them: ULIDs, by their time first. */
const newestFirst = (list: Array<string | undefined>) => [...list].sort().reverse();

const createEvent = async (api: Client, name: string): Promise<string> => {
  const created = await api.post('/v1/events', { name, starts_at: '2099-09-01T20:00:00Z', currency: 'EUR' });
  expect(created.status).toBe(200);
  return created.body.id;
};

describe('webhook deliveries through the gateway', () => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });

  afterAll(async () => {
    // Leave the system as the suite started it: webhooks with its default retry schedule.
    await restart('webhooks');
    await receiver.close();
  });

  it('delivers catalog and ticketing events, signed, to an endpoint subscribed to them, and logs each attempt', async () => {
    const api = as((await createAccount()).secret_key);
    const endpoint = await createEndpoint(api, receiver.url('/orders'), ['event.created', 'ticket.issued']);
    // A second endpoint hears what the first does not subscribe to, so the test knows when it was recorded.
    const audit = await createEndpoint(api, receiver.url('/audit'), ['event.updated']);

    const { eventId, tierId } = await onSale(api);
    // The ticket is issued once the event's creation has arrived, so the log's order is known.
    await receiver.awaitArrivals('/orders', 1);
    const issued = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId));
    expect(issued.status).toBe(200);
    expect((await api.patch(`/v1/events/${eventId}`, { name: 'On-sale night, renamed' })).status).toBe(200);

    const arrivals = await receiver.awaitArrivals('/orders', 2);
    const payloads = arrivals.map((arrival) => verified(endpoint.secret, arrival));
    const byType = new Map(payloads.map((payload) => [payload.type, payload]));
    expect([...byType.keys()].sort()).toEqual(['event.created', 'ticket.issued']);
    arrivals.forEach((arrival, index) => {
      expect(arrival.headers['webhook-id']).toBe(payloads[index]!.id);
      expect(arrival.headers['content-type']).toBe('application/json');
      expect(Math.abs(Number(arrival.headers['webhook-timestamp']) * 1000 - arrival.at)).toBeLessThan(60_000);
    });
    expect(byType.get('event.created')).toEqual({
      id: expect.stringMatching(/^ntf_/),
      type: 'event.created',
      created_at: expect.any(String),
      livemode: false,
      data: expect.objectContaining({ event_id: eventId, name: 'On-sale night', status: 'draft', currency: 'EUR' }),
    });
    expect(byType.get('ticket.issued')).toEqual({
      id: expect.stringMatching(/^ntf_/),
      type: 'ticket.issued',
      created_at: expect.any(String),
      livemode: false,
      data: expect.objectContaining({ event_id: eventId, tier_id: tierId, issuance_id: issued.body.id, ticket_ids: issued.body.tickets.map((ticket: { id: string }) => ticket.id) }),
    });
    // Signed by this endpoint's secret and no other.
    expect(() => verified(audit.secret, arrivals[0]!)).toThrow();

    const log = await settledLog(api, endpoint.id, 2, hasSucceeded);
    expect(log.map((delivery) => delivery.type)).toEqual(['ticket.issued', 'event.created']);
    for (const delivery of log) {
      const arrival = arrivals.find((candidate) => candidate.headers['webhook-id'] === delivery.notification_id);
      expect({ type: delivery.type, arrived: arrival !== undefined }).toEqual({ type: delivery.type, arrived: true });
      expect(delivery).toEqual({
        id: expect.stringMatching(/^dlv_[0-9A-Z]{26}$/),
        object: 'webhook_delivery',
        livemode: false,
        endpoint_id: endpoint.id,
        notification_id: arrival!.headers['webhook-id'],
        type: delivery.type,
        status: 'succeeded',
        attempt_count: 1,
        next_attempt_at: null,
        last_attempt_at: expect.any(String),
        created_at: expect.any(String),
        attempts: [{ attempted_at: delivery.last_attempt_at, http_status: 200, latency_ms: expect.any(Number), succeeded: true, error: null, response_body: `answer ${arrivals.indexOf(arrival!) + 1}: 200` }],
      });
    }

    // The rename was recorded (the audit endpoint got it) and never scheduled for the first endpoint.
    const [renamed] = await receiver.awaitArrivals('/audit', 1);
    expect(verified(audit.secret, renamed!)).toMatchObject({ type: 'event.updated', data: { event_id: eventId, name: 'On-sale night, renamed' } });
    await settledLog(api, audit.id, 1, hasSucceeded);
    expect((await deliveries(api, `endpoint_id=${endpoint.id}`)).map((delivery) => delivery.type)).toEqual(['ticket.issued', 'event.created']);
    expect(receiver.to('/orders')).toHaveLength(2);
  });

  it('pings an endpoint now and answers the attempt’s outcome, which the log shows under type=ping', async () => {
    const api = as((await createAccount()).secret_key);
    const up = await createEndpoint(api, receiver.url('/ping-up'), ['ticket.refunded']);
    const down = await createEndpoint(api, receiver.url('/ping-down'), ['ticket.refunded']);
    receiver.answer('/ping-down', 500);

    const pinged = await api.post(`/v1/webhook_endpoints/${up.id}/ping`);
    expect(pinged.status).toBe(200);
    const [arrival] = receiver.to('/ping-up');
    expect(receiver.to('/ping-up')).toHaveLength(1);
    const payload = verified(up.secret, arrival!);
    expect(payload).toEqual({ id: expect.stringMatching(/^ntf_/), type: 'ping', created_at: expect.any(String), livemode: false, data: { endpoint_id: up.id } });
    expect(arrival!.headers['webhook-id']).toBe(payload.id);
    expect(pinged.body).toEqual({
      id: expect.stringMatching(/^dlv_/),
      object: 'webhook_delivery',
      livemode: false,
      endpoint_id: up.id,
      notification_id: payload.id,
      type: 'ping',
      status: 'succeeded',
      attempt_count: 1,
      next_attempt_at: null,
      last_attempt_at: expect.any(String),
      created_at: expect.any(String),
      attempts: [{ attempted_at: pinged.body.last_attempt_at, http_status: 200, latency_ms: expect.any(Number), succeeded: true, error: null, response_body: 'answer 1: 200' }],
    });

    const failed = await api.post(`/v1/webhook_endpoints/${down.id}/ping`);
    expect(failed.status).toBe(200);
    expect(receiver.to('/ping-down')).toHaveLength(1);
    expect(verified(down.secret, receiver.to('/ping-down')[0]!)).toMatchObject({ type: 'ping', data: { endpoint_id: down.id } });
    expect(failed.body).toMatchObject({
      endpoint_id: down.id,
      type: 'ping',
      status: 'failed',
      attempt_count: 1,
      next_attempt_at: null,
      attempts: [{ http_status: 500, succeeded: false, error: expect.stringContaining('500'), response_body: 'answer 1: 500' }],
    });

    expect(await deliveries(api, 'type=ping')).toEqual([failed.body, pinged.body]);
    expect(await deliveries(api, `type=ping&endpoint_id=${up.id}`)).toEqual([pinged.body]);
    expect(await deliveries(api, 'type=ticket.refunded')).toEqual([]);
    // A ping is never retried: the failed one stays as it was.
    expect((await api.get(`/v1/events/deliveries?endpoint_id=${down.id}`)).body.data).toEqual([failed.body]);
  });

  it('replays a delivered notification under the same webhook-id, answering the delivery with one more attempt', async () => {
    const api = as((await createAccount()).secret_key);
    const endpoint = await createEndpoint(api, receiver.url('/replay'), ['event.created']);
    const eventId = await createEvent(api, 'Replay night');
    const [first] = await receiver.awaitArrivals('/replay', 1);
    const [delivered] = await settledLog(api, endpoint.id, 1, hasSucceeded);
    expect(delivered).toMatchObject({ notification_id: first!.headers['webhook-id'], attempt_count: 1 });

    const replayed = await api.post(`/v1/events/deliveries/${delivered!.id}/replay`);
    expect(replayed.status).toBe(200);
    const arrivals = receiver.to('/replay');
    expect(arrivals).toHaveLength(2);
    const again = arrivals[1]!;
    expect(again.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verified(endpoint.secret, again)).toEqual(verified(endpoint.secret, first!));
    expect(verified(endpoint.secret, again)).toMatchObject({ id: delivered!.notification_id, type: 'event.created', data: { event_id: eventId } });
    expect(replayed.body).toEqual({
      ...delivered,
      attempt_count: 2,
      last_attempt_at: expect.any(String),
      attempts: [delivered!.attempts[0], { attempted_at: replayed.body.last_attempt_at, http_status: 200, latency_ms: expect.any(Number), succeeded: true, error: null, response_body: 'answer 2: 200' }],
    });
    expect(Date.parse(replayed.body.last_attempt_at)).toBeGreaterThan(Date.parse(delivered!.last_attempt_at));
    expect(await deliveries(api, `endpoint_id=${endpoint.id}`)).toEqual([replayed.body]);

    // A delivery that failed (a ping to a receiver that was down) is delivered by a replay once the receiver is back.
    receiver.answer('/replay', 503, 200);
    const ping = await api.post(`/v1/webhook_endpoints/${endpoint.id}/ping`);
    expect(ping.body).toMatchObject({ status: 'failed', attempt_count: 1 });
    const recovered = await api.post(`/v1/events/deliveries/${ping.body.id}/replay`);
    expect(recovered.status).toBe(200);
    expect(recovered.body).toMatchObject({ id: ping.body.id, status: 'succeeded', attempt_count: 2, attempts: [{ http_status: 503, succeeded: false }, { http_status: 200, succeeded: true }] });
    expect(receiver.to('/replay').slice(2).map((arrival) => arrival.headers['webhook-id'])).toEqual([ping.body.notification_id, ping.body.notification_id]);

    // Once its endpoint is deleted, a delivery stays in the log but cannot be sent again.
    expect((await api.delete(`/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
    const orphaned = await api.post(`/v1/events/deliveries/${ping.body.id}/replay`);
    expect({ status: orphaned.status, code: orphaned.body.error?.code }).toEqual({ status: 409, code: 'endpoint_deleted' });
    expect(receiver.to('/replay')).toHaveLength(4);
  });

  it('filters the log by status, type and endpoint, and shows an account none of another’s deliveries', async () => {
    const owner = await createAccount();
    const api = as(owner.secret_key);
    const steady = await createEndpoint(api, receiver.url('/steady'), ['event.created', 'event.published']);
    const failing = await createEndpoint(api, receiver.url('/failing'), ['event.created']);
    receiver.answer('/failing', 500);
    const eventId = await createEvent(api, 'Filter night');
    // Each step once the one before is in the log, so the log's order is known.
    await settledLog(api, failing.id, 1, (delivery) => delivery.attempt_count >= 1);
    expect((await api.patch(`/v1/events/${eventId}`, { status: 'published' })).status).toBe(200);
    const steadyLog = await settledLog(api, steady.id, 2, hasSucceeded);
    expect(steadyLog.map((delivery) => delivery.type)).toEqual(['event.published', 'event.created']);
    const failedPing = (await api.post(`/v1/webhook_endpoints/${failing.id}/ping`)).body;

    // The default schedule waits about 5 s after a first failure: the delivery stays pending meanwhile.
    const failingLog = await deliveries(api, `endpoint_id=${failing.id}`);
    const [, retrying] = failingLog;
    expect(failingLog.map((delivery) => [delivery.type, delivery.status])).toEqual([
      ['ping', 'failed'],
      ['event.created', 'pending'],
    ]);
    expect(retrying).toMatchObject({ next_attempt_at: expect.any(String), attempts: [{ http_status: 500, succeeded: false }] });
    expect(Date.parse(retrying!.next_attempt_at)).toBeGreaterThan(Date.parse(retrying!.last_attempt_at));

    const idsWhere = async (query: string) => ids({ data: (await deliveries(api, query)) as Array<{ id: string }> });
    const [published, created] = ids({ data: steadyLog as Array<{ id: string }> });
    const cases: Array<[string, string[]]> = [
      ['', [failedPing.id, published!, retrying!.id, created!]],
      [`endpoint_id=${steady.id}`, [published!, created!]],
      [`endpoint_id=${failing.id}`, [failedPing.id, retrying!.id]],
      ['status=succeeded', [published!, created!]],
      ['status=pending', [retrying!.id]],
      ['status=failed', [failedPing.id]],
      ['status=canceled', []],
      ['type=event.created', [retrying!.id, created!]],
      ['type=event.published', [published!]],
      ['type=ping', [failedPing.id]],
      [`type=event.created&endpoint_id=${failing.id}`, [retrying!.id]],
      [`status=succeeded&type=event.created&endpoint_id=${steady.id}`, [created!]],
      [`status=pending&endpoint_id=${steady.id}`, []],
    ];
    for (const [query, expected] of cases) {
      // The failing delivery may be tried again meanwhile; it stays pending and in place.
      expect({ query, ids: await idsWhere(query) }).toEqual({ query, ids: newestFirst(expected) });
    }
    expect(await walkList(api, '/v1/events/deliveries', 1)).toEqual({ ids: newestFirst([failedPing.id, published, retrying!.id, created]), hasMoreFlags: [true, true, true, false] });
    const invalid = await api.get('/v1/events/deliveries?status=delivered');
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ type: 'invalid_request_error', param: 'status' });

    const stranger = as((await createAccount()).secret_key);
    const live = as((await activateLive(owner.account_id)).secret_key);
    for (const [label, client] of [
      ['another account', stranger],
      ['the same account in live mode', live],
    ] as const) {
      expect({ label, log: await deliveries(client) }).toEqual({ label, log: [] });
      expect({ label, log: await deliveries(client, `endpoint_id=${steady.id}`) }).toEqual({ label, log: [] });
      const replay = await client.post(`/v1/events/deliveries/${published}/replay`);
      expect({ label, status: replay.status, code: replay.body.error?.code }).toEqual({ label, status: 404, code: 'resource_missing' });
      const ping = await client.post(`/v1/webhook_endpoints/${steady.id}/ping`);
      expect({ label, status: ping.status, code: ping.body.error?.code }).toEqual({ label, status: 404, code: 'resource_missing' });
    }
    // Nothing the others asked for reached the receiver.
    expect(receiver.to('/steady')).toHaveLength(2);
    expect((await deliveries(api, `endpoint_id=${steady.id}`)).map((delivery) => delivery.attempt_count)).toEqual([1, 1]);
  });

  it('keeps a failing delivery’s retry schedule across a SIGKILL of the webhooks service', async () => {
    const api = as((await createAccount()).secret_key);
    const endpoint = await createEndpoint(api, receiver.url('/flaky'), ['event.created']);
    receiver.answer('/flaky', 500, 500, 200);
    const webhooks = await restart('webhooks', QUICK_RETRIES);

    const eventId = await createEvent(api, 'Flaky night');
    const [afterFirst] = await waitFor(
      'the first failed attempt in the log',
      async () => {
        const log = await deliveries(api, `endpoint_id=${endpoint.id}`);
        return log[0]?.attempt_count === 1 ? log : undefined;
      },
      { intervalMs: 20 },
    );
    await kill(webhooks.process.pid!);
    const killedAt = Date.now();
    // The kill landed between the first attempt and the second, which is due a second later.
    expect(receiver.to('/flaky')).toHaveLength(1);
    expect(afterFirst).toMatchObject({ status: 'pending', attempt_count: 1, next_attempt_at: expect.any(String), attempts: [{ http_status: 500, succeeded: false }] });

    await restart('webhooks', QUICK_RETRIES);
    const restartedAfterMs = Date.now() - killedAt;
    const [delivered] = await settledLog(api, endpoint.id, 1, hasSucceeded);
    expect(delivered).toMatchObject({ id: afterFirst!.id, status: 'succeeded', attempt_count: 3, next_attempt_at: null });
    expect(delivered!.attempts.map((attempt: { http_status: number }) => attempt.http_status)).toEqual([500, 500, 200]);

    const arrivals = receiver.to('/flaky');
    expect(arrivals).toHaveLength(3);
    for (const arrival of arrivals) {
      expect(verified(endpoint.secret, arrival)).toMatchObject({ id: delivered!.notification_id, type: 'event.created', data: { event_id: eventId } });
      expect(arrival.headers['webhook-id']).toBe(delivered!.notification_id);
    }
    const [first, second, third] = arrivals.map((arrival) => arrival.at) as [number, number, number];
    const gaps = { firstToSecond: second - first, secondToThird: third - second, restartedAfterMs };
    // The third attempt waited the schedule's second delay, not its first again: the count of attempts survived the crash.
    expect({ ...gaps, waitedTheSecondDelay: gaps.secondToThird >= SECOND_DELAY_FLOOR_MS, waitedLonger: gaps.secondToThird > gaps.firstToSecond }).toEqual({
      ...gaps,
      waitedTheSecondDelay: true,
      waitedLonger: true,
    });
  });
});
