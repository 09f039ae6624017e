import path from 'node:path';
import type { InternalClaims, Mode } from '@ticketing/auth';
import { webhooksV1 } from '@ticketing/contracts';
import { callUnary, createGrpcClient, startGrpcServer, type CallerOptions, type RunningGrpcServer } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { createTestDatabase, type TestDatabase } from '@ticketing/testing';
import { Webhook } from 'standardwebhooks';
import { createWebhooksPrisma, type PrismaClient } from '../src/db';
import { SignedDelivery } from '../src/delivery/signed-delivery';
import { WebhookSender } from '../src/delivery/webhook-sender';
import { webhooksGrpcServices } from '../src/grpc/services';
import { EndpointSecrets } from '../src/secrets/endpoint-secrets';

const tokenSecret = 'webhooks-test-secret-0123456789';
const options = { tokenSecret, deadlineMs: 10_000 };
const secrets = new EndpointSecrets(Buffer.alloc(32, 3));

/** Endpoint management through the webhooks service's real gRPC server on real PostgreSQL. */
describe('webhook endpoints (real PostgreSQL, real gRPC)', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;
  let server: RunningGrpcServer;
  let endpoints: webhooksV1.WebhookEndpointServiceClient;

  beforeAll(async () => {
    database = await createTestDatabase('webhooks', path.join(__dirname, '../prisma/migrations'));
    prisma = createWebhooksPrisma(database.url);
    const destinations = { allowLocalHttp: true };
    const delivery = new SignedDelivery(new WebhookSender(destinations, 1000), secrets);
    server = await startGrpcServer(webhooksGrpcServices(prisma, secrets, destinations, delivery, { tokenSecret, logger: createLogger('webhooks-test', 'silent') }), 0);
    endpoints = createGrpcClient(webhooksV1.WebhookEndpointServiceClient, `127.0.0.1:${server.port}`);
  });

  afterAll(async () => {
    endpoints.close();
    await server.shutdown();
    await prisma.$disconnect();
    await database.drop();
  });

  /** A fresh tenant per test, so no test sees another's rows. */
  const tenant = (mode: Mode = 'test', accountId = newId('acct')): InternalClaims => ({ request_id: 'req_test', tenant: { account_id: accountId, mode } });
  const createRequest = (fields: Partial<webhooksV1.CreateEndpointRequest> = {}): webhooksV1.CreateEndpointRequest => ({
    url: 'https://hooks.example.com/ticketing',
    enabled_events: ['ticket.issued'],
    description: '',
    metadata: {},
    ...fields,
  });
  const updateRequest = (id: string, fields: Partial<webhooksV1.UpdateEndpointRequest> = {}): webhooksV1.UpdateEndpointRequest => ({
    id,
    enabled_events: [],
    enabled_events_set: false,
    metadata: {},
    metadata_set: false,
    ...fields,
  });
  const create = (claims: InternalClaims, fields: Partial<webhooksV1.CreateEndpointRequest> = {}, caller: CallerOptions = options) =>
    callUnary(endpoints.createEndpoint.bind(endpoints), createRequest(fields), claims, caller);
  const get = (claims: InternalClaims, id: string) => callUnary(endpoints.getEndpoint.bind(endpoints), { id }, claims, options);
  const update = (claims: InternalClaims, id: string, fields: Partial<webhooksV1.UpdateEndpointRequest>) =>
    callUnary(endpoints.updateEndpoint.bind(endpoints), updateRequest(id, fields), claims, options);
  const list = (claims: InternalClaims, startingAfter = '') => callUnary(endpoints.listEndpoints.bind(endpoints), { page: { limit: 2, starting_after: startingAfter } }, claims, options);

  it('creates an endpoint whose secret signs, is shown once, and is stored only sealed', async () => {
    const claims = tenant();
    const created = await create(claims, { enabled_events: ['ticket.issued', 'ticket.issued', 'event.published'], description: ' Orders ', metadata: { team: 'crm' } });
    expect(created).toMatchObject({
      livemode: false,
      url: 'https://hooks.example.com/ticketing',
      enabled_events: ['ticket.issued', 'event.published'],
      description: 'Orders',
      metadata: { team: 'crm' },
      status: 'enabled',
      disabled_reason: '',
      previous_secret_expires_at: '',
    });
    expect(created.id).toMatch(/^we_/);
    expect(created.secret).toMatch(/^whsec_/);
    const signature = new Webhook(created.secret).sign('msg_1', new Date(), '{}');
    expect(() => new Webhook(created.secret).verify('{}', { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': signature })).not.toThrow();

    expect((await get(claims, created.id)).secret).toBe('');
    const row = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.sealed_secret).not.toContain(created.secret.slice('whsec_'.length));
    expect(secrets.open(row.sealed_secret, created.id)).toBe(created.secret);
  });

  it('answers a retry under the same Idempotency-Key with the same endpoint and secret, creating one', async () => {
    const claims = tenant();
    const caller: CallerOptions = { ...options, idempotency: { key: 'create-1', fingerprint: 'body-a', onReplayed: () => undefined } };
    const first = await create(claims, {}, caller);
    const retried = await create(claims, {}, caller);
    expect(retried).toEqual(first);
    expect(await prisma.webhookEndpoint.count({ where: { account_id: claims.tenant!.account_id } })).toBe(1);
    // The recorded result holds the sealed secret, not the secret.
    const [record] = await prisma.idempotencyKey.findMany({ where: { account_id: claims.tenant!.account_id } });
    expect(record!.result).not.toBeNull();
    expect(Buffer.from(record!.result!).toString('latin1')).not.toContain(first.secret.slice('whsec_'.length, 20));
  });

  it('refuses what cannot be delivered to, and stores nothing', async () => {
    const claims = tenant('live');
    const refusals: Array<[Partial<webhooksV1.CreateEndpointRequest>, string]> = [
      [{ url: 'http://hooks.example.com/' }, 'url'],
      [{ url: 'https://10.1.2.3/hook' }, 'url'],
      [{ url: 'https://127.0.0.1:8443/hook' }, 'url'],
      [{ enabled_events: ['ticket.printed'] }, 'enabled_events'],
      [{ enabled_events: ['*', 'ticket.issued'] }, 'enabled_events'],
      [{ enabled_events: [] }, 'enabled_events'],
      [{ metadata: { ['k'.repeat(41)]: 'v' } }, `metadata[${'k'.repeat(41)}]`],
    ];
    for (const [fields, param] of refusals) {
      await expect(create(claims, fields)).rejects.toMatchObject({ code: 'parameter_invalid', status: 400, param });
    }
    expect(await prisma.webhookEndpoint.count({ where: { account_id: claims.tenant!.account_id } })).toBe(0);
  });

  it('lets test mode, and only test mode, deliver to this machine when the deployment allows it', async () => {
    await expect(create(tenant('test'), { url: 'http://127.0.0.1:9000/hook' })).resolves.toMatchObject({ url: 'http://127.0.0.1:9000/hook' });
    await expect(create(tenant('live'), { url: 'http://127.0.0.1:9000/hook' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'url' });
  });

  it('changes only the fields given, disables and enables, and keeps other tenants out', async () => {
    const claims = tenant();
    const created = await create(claims, { description: 'Orders', metadata: { team: 'crm' } });
    const changed = await update(claims, created.id, { enabled_events: ['*'], enabled_events_set: true, description: '', disabled: true });
    expect(changed).toMatchObject({ enabled_events: ['*'], description: '', metadata: { team: 'crm' }, url: created.url, status: 'disabled', disabled_reason: 'by_request', secret: '' });
    expect(await update(claims, created.id, { metadata: {}, metadata_set: true, disabled: false })).toMatchObject({ metadata: {}, status: 'enabled', disabled_reason: '' });
    await expect(update(claims, created.id, {})).rejects.toMatchObject({ code: 'parameter_missing' });

    for (const stranger of [tenant('live', claims.tenant!.account_id), tenant()]) {
      await expect(get(stranger, created.id)).rejects.toMatchObject({ code: 'resource_missing', status: 404 });
      await expect(update(stranger, created.id, { disabled: true })).rejects.toMatchObject({ code: 'resource_missing' });
      await expect(callUnary(endpoints.deleteEndpoint.bind(endpoints), { id: created.id }, stranger, options)).rejects.toMatchObject({ code: 'resource_missing' });
    }
    expect((await get(claims, created.id)).status).toBe('enabled');
  });

  it('rotates the secret, keeping the previous one for a day, and only the latest previous one', async () => {
    const claims = tenant();
    const created = await create(claims);
    const before = Date.now();
    const rotated = await callUnary(endpoints.rotateEndpointSecret.bind(endpoints), { id: created.id }, claims, options);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.previous_secret_expires_at) - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    const again = await callUnary(endpoints.rotateEndpointSecret.bind(endpoints), { id: created.id }, claims, options);
    const row = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
    expect(secrets.open(row.sealed_secret, created.id)).toBe(again.secret);
    expect(secrets.open(row.sealed_previous_secret!, created.id)).toBe(rotated.secret);
  });

  it('deletes an endpoint for good, its id still a cursor for the list', async () => {
    const claims = tenant();
    const [oldest, middle, newest] = [await create(claims), await create(claims), await create(claims)];
    expect((await list(claims)).data.map((endpoint) => endpoint.id)).toEqual([newest.id, middle.id]);
    await expect(callUnary(endpoints.deleteEndpoint.bind(endpoints), { id: middle.id }, claims, options)).resolves.toEqual({ id: middle.id });
    await expect(get(claims, middle.id)).rejects.toMatchObject({ code: 'resource_missing' });
    await expect(callUnary(endpoints.deleteEndpoint.bind(endpoints), { id: middle.id }, claims, options)).rejects.toMatchObject({ code: 'resource_missing' });
    expect(await list(claims, middle.id)).toMatchObject({ data: [expect.objectContaining({ id: oldest.id })], has_more: false });
    await expect(list(tenant(), middle.id)).rejects.toMatchObject({ code: 'resource_missing', param: 'starting_after' });
  });

  it('keeps an account to 16 endpoints in each mode, even when they are created at once', async () => {
    const claims = tenant();
    const attempts = await Promise.allSettled(Array.from({ length: 20 }, () => create(claims)));
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(16);
    for (const refused of attempts.filter((attempt) => attempt.status === 'rejected')) {
      expect(refused.reason).toMatchObject({ code: 'endpoint_limit_reached', status: 409 });
    }
    expect(await prisma.webhookEndpoint.count({ where: { account_id: claims.tenant!.account_id } })).toBe(16);
    await expect(create(tenant('live', claims.tenant!.account_id))).resolves.toMatchObject({ livemode: true });
  });
});
