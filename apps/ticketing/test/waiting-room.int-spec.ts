import path from 'node:path';
import { tenantKey, type InternalClaims, type Tenant } from '@ticketing/auth';
import { TICKETING_QUEUE_TOPIC, TICKETING_SEAT_TOPIC } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { newId } from '@ticketing/ids';
import { createLogger } from '@ticketing/observability';
import { connectRedis, type RedisClient } from '@ticketing/redis';
import type { IdempotentWrite } from '@ticketing/db';
import { createTestDatabase, lateForwarder, waitFor, type TestDatabase } from '@ticketing/testing';
import type { EventFacts } from '../src/catalog/catalog-inventory';
import { createTicketingPrisma, type PrismaClient } from '../src/db';
import { EventSettingsRepository } from '../src/repositories/event-settings.repository';
import { SeatHoldRepository } from '../src/repositories/seat-hold.repository';
import { AdmissionGate } from '../src/usecases/waiting-room/admission-gate';
import { WaitingRoomUseCase } from '../src/usecases/waiting-room/waiting-room.usecase';
import { AdmissionTokens } from '../src/waiting-room/admission-tokens';
import { QUEUE_IDLE_TTL_MS, QueueStore } from '../src/waiting-room/queue-store';
import { ofType, publishedOn } from './support/published';

const logger = createLogger('ticketing-test', 'silent');
const callerOf = (tenant: Tenant): InternalClaims => ({ request_id: 'req_test', tenant: { account_id: tenant.accountId, mode: tenant.mode } });

/** Each tenant's events' waiting rooms as catalog has them now, by tenant and event. */
class CatalogRooms {
  private readonly events = new Map<string, Pick<EventFacts, 'waitingRoom' | 'status'>>();

  set(tenant: Tenant, eventId: string, waitingRoom: EventFacts['waitingRoom'], status = 'published'): void {
    this.events.set(`${tenantKey(tenant)}/${eventId}`, { waitingRoom, status });
  }

  async eventFacts(claims: InternalClaims, eventId: string): Promise<EventFacts> {
    const event = this.events.get(`${tenantKey({ accountId: claims.tenant!.account_id, mode: claims.tenant!.mode })}/${eventId}`);
    if (!event) throw ApiError.resourceMissing('event', eventId);
    return { name: 'Night', startsAt: '2027-03-01T20:00:00.000Z', timeZone: null, ...event };
  }
}

/** Waiting rooms (decision 0034) on real Redis and PostgreSQL, with a clock the test moves. */
describe('waiting room (real Redis, real PostgreSQL)', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;
  let redis: RedisClient;
  let now = new Date('2027-03-01T10:00:00Z');
  const tokens = new AdmissionTokens('ticketing-test-secret-0123456789');
  let room: WaitingRoomUseCase;
  const catalogRooms = new CatalogRooms();
  let gate: AdmissionGate;

  beforeAll(async () => {
    database = await createTestDatabase('ticketing', path.join(__dirname, '../prisma/migrations'));
    prisma = createTicketingPrisma(database.url);
    redis = await connectRedis('redis://127.0.0.1:6379', logger);
    const queues = new QueueStore(redis, 600_000);
    room = new WaitingRoomUseCase(prisma, catalogRooms, queues, logger, () => now);
    gate = new AdmissionGate(prisma, tokens, queues);
  });

  afterAll(async () => {
    await redis.close();
    await prisma.$disconnect();
    await database.drop();
  });

  /** A new event of a new tenant, with its waiting room as given, in catalog and in ticketing's copy. */
  async function eventWithRoom(rate: number | null, enabled = true): Promise<{ tenant: Tenant; eventId: string }> {
    const tenant: Tenant = { accountId: newId('acct'), mode: 'test' };
    const eventId = newId('evt');
    catalogRooms.set(tenant, eventId, { enabled, admissionRatePerMinute: rate ?? 0 });
    await new EventSettingsRepository(prisma).save(tenant, { event_id: eventId, status: 'published', waiting_room_enabled: enabled, admission_rate_per_minute: rate }, new Date());
    return { tenant, eventId };
  }
  /** What the gate answers a sale, screened, then settled as catalog held its units: with the room enabled unless told otherwise. */
  const admit = async (tenant: Tenant, eventId: string, token: string, roomEnabledAtHold = true) => ((await (await gate.screen(tenant, eventId, token)).settle(roomEnabledAtHold))?.entryId ?? null);
  const later = (seconds: number) => {
    now = new Date(now.getTime() + seconds * 1000);
  };

  it('admits first in, first out, at the event’s rate, up to a minute’s worth at once', async () => {
    const { tenant, eventId } = await eventWithRoom(2);
    const entries = [];
    for (let index = 0; index < 5; index++) entries.push(await room.join(callerOf(tenant), tenant, eventId));
    expect(entries.map((entry) => [entry.status, entry.position])).toEqual([
      ['admitted', null],
      ['admitted', null],
      ['waiting', 1],
      ['waiting', 2],
      ['waiting', 3],
    ]);
    expect((await room.read(callerOf(tenant), tenant, eventId, '')).state).toEqual({ event_id: eventId, length: 3, admitted: 2, admission_rate_per_minute: 2 });

    later(30);
    const third = await room.read(callerOf(tenant), tenant, eventId, entries[2]!.id);
    expect(third.entry).toMatchObject({ status: 'admitted', admitted_at: now });
    expect((await room.read(callerOf(tenant), tenant, eventId, entries[3]!.id)).entry).toMatchObject({ status: 'waiting', position: 1 });
    later(60);
    expect((await room.read(callerOf(tenant), tenant, eventId, entries[4]!.id)).entry).toMatchObject({ status: 'admitted' });
    const messages = await publishedOn(prisma, TICKETING_QUEUE_TOPIC, eventId);
    expect(ofType(messages, 'queue.joined').map((message) => message.data)).toEqual(entries.map((entry) => ({ event_id: eventId, entry_id: entry.id })));
    expect(ofType(messages, 'queue.admitted').flatMap((message) => message.data.entry_ids)).toEqual(entries.map((entry) => entry.id));
    expect(messages.every((message) => message.account_id === tenant.accountId && message.mode === 'test')).toBe(true);
  });

  it('keeps what the room earned at the old rate when the rate changes: raising it after a wait lets no burst through', async () => {
    const { tenant, eventId } = await eventWithRoom(1);
    const entries = [];
    for (let index = 0; index < 10; index++) entries.push(await room.join(callerOf(tenant), tenant, eventId));
    later(30);
    expect((await room.read(callerOf(tenant), tenant, eventId, '')).state.admitted).toBe(1);

    // Half an admission earned at 1 a minute is half a second's worth at 60 a minute.
    catalogRooms.set(tenant, eventId, { enabled: true, admissionRatePerMinute: 60 });
    await new EventSettingsRepository(prisma).save(tenant, { event_id: eventId, status: 'published', waiting_room_enabled: true, admission_rate_per_minute: 60 }, new Date());
    expect((await room.read(callerOf(tenant), tenant, eventId, '')).state).toMatchObject({ admitted: 1, admission_rate_per_minute: 60 });
    later(1);
    expect((await room.read(callerOf(tenant), tenant, eventId, '')).state.admitted).toBe(2);
    later(3);
    expect((await room.read(callerOf(tenant), tenant, eventId, entries[4]!.id)).entry).toMatchObject({ status: 'admitted' });
    expect((await room.read(callerOf(tenant), tenant, eventId, '')).state.admitted).toBe(5);
  });

  it('keeps join order under concurrent joins: admissions follow positions exactly', async () => {
    const { tenant, eventId } = await eventWithRoom(1);
    const first = await room.join(callerOf(tenant), tenant, eventId);
    expect(first.status).toBe('admitted');
    const joined = await Promise.all(Array.from({ length: 20 }, () => room.join(callerOf(tenant), tenant, eventId)));
    const byPosition = [...joined].sort((a, b) => a.position! - b.position!);
    expect(byPosition.map((entry) => entry.position)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    for (const expected of byPosition.slice(0, 3)) {
      later(60);
      const admittedNow = (await room.read(callerOf(tenant), tenant, eventId, expected.id)).entry!;
      expect(admittedNow.status).toBe('admitted');
    }
  });

  it('answers a join repeated under its Idempotency-Key with the entry it queued, taking no second place, even at once', async () => {
    const { tenant, eventId } = await eventWithRoom(1);
    let replays = 0;
    const keyed = (key: string): IdempotentWrite => ({ tenant, operation: '/ticketing.v1.WaitingRoomService/JoinQueue', key, fingerprint: 'f', markReplayed: () => (replays += 1) });
    await room.join(callerOf(tenant), tenant, eventId);
    const [first, ...retries] = await Promise.all([1, 2, 3].map(() => room.join(callerOf(tenant), tenant, eventId, keyed('join-once'))));
    expect(retries).toEqual([first, first]);
    expect(replays).toBe(2);
    // The first reply was lost and the client retries later: still its own entry.
    expect(await room.join(callerOf(tenant), tenant, eventId, keyed('join-once'))).toEqual(first);
    const other = await room.join(callerOf(tenant), tenant, eventId, keyed('another-buyer'));
    expect([first!.position, other.position]).toEqual([1, 2]);
    expect((await room.read(callerOf(tenant), tenant, eventId, '')).state.length).toBe(2);
    expect(ofType(await publishedOn(prisma, TICKETING_QUEUE_TOPIC, eventId), 'queue.joined')).toHaveLength(3);
  });

  it('takes a waiting entry out when it leaves; the next one moves up', async () => {
    const { tenant, eventId } = await eventWithRoom(1);
    await room.join(callerOf(tenant), tenant, eventId);
    const second = await room.join(callerOf(tenant), tenant, eventId);
    const third = await room.join(callerOf(tenant), tenant, eventId);
    expect(await room.leave(callerOf(tenant), tenant, eventId, second.id)).toMatchObject({ status: 'left', position: null });
    expect((await room.read(callerOf(tenant), tenant, eventId, third.id)).entry).toMatchObject({ position: 1 });
    await expect(room.leave(callerOf(tenant), tenant, eventId, newId('qen'))).rejects.toMatchObject({ code: 'resource_missing', param: 'entry_id' });
  });

  it('publishes queue.left once for an entry that leaves, waiting or admitted, after its queue.joined', async () => {
    const { tenant, eventId } = await eventWithRoom(1);
    const admitted = await room.join(callerOf(tenant), tenant, eventId);
    const waiting = await room.join(callerOf(tenant), tenant, eventId);
    expect([admitted.status, waiting.status]).toEqual(['admitted', 'waiting']);
    await room.leave(callerOf(tenant), tenant, eventId, waiting.id);
    // Leaving again (a client's retry) answers the same and announces nothing more.
    expect(await room.leave(callerOf(tenant), tenant, eventId, waiting.id)).toMatchObject({ id: waiting.id, status: 'left' });
    await room.leave(callerOf(tenant), tenant, eventId, admitted.id);
    await expect(room.leave(callerOf(tenant), tenant, eventId, newId('qen'))).rejects.toMatchObject({ code: 'resource_missing' });

    const messages = await publishedOn(prisma, TICKETING_QUEUE_TOPIC, eventId);
    expect(messages.map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'queue.joined', data: { event_id: eventId, entry_id: admitted.id } },
      { type: 'queue.admitted', data: { event_id: eventId, entry_ids: [admitted.id] } },
      { type: 'queue.joined', data: { event_id: eventId, entry_id: waiting.id } },
      { type: 'queue.left', data: { event_id: eventId, entry_id: waiting.id } },
      { type: 'queue.left', data: { event_id: eventId, entry_id: admitted.id } },
    ]);
    expect(messages.every((message) => message.account_id === tenant.accountId && message.mode === 'test')).toBe(true);
  });

  it('lets a room’s keys expire a week after the last call that touched them', async () => {
    const { tenant, eventId } = await eventWithRoom(1);
    await room.join(callerOf(tenant), tenant, eventId);
    await room.join(callerOf(tenant), tenant, eventId);
    const keys = ['waiting', 'entries', 'state'].map((suffix) => `ticketing:queue:${eventId}:${suffix}`);
    for (const key of keys) await redis.pExpire(key, 1000);
    await room.read(callerOf(tenant), tenant, eventId, '');
    for (const key of keys) {
      const ttl = await redis.pTTL(key);
      expect(ttl).toBeGreaterThan(QUEUE_IDLE_TTL_MS - 60_000);
      expect(ttl).toBeLessThanOrEqual(QUEUE_IDLE_TTL_MS);
    }
  });

  it('gives an admission up when its entry leaves: the token no longer lets an issuance through', async () => {
    const { tenant, eventId } = await eventWithRoom(10);
    const entry = await room.join(callerOf(tenant), tenant, eventId);
    expect(entry.status).toBe('admitted');
    const token = tokens.sign({ entryId: entry.id, eventId }, entry.admission_expires_at!);
    expect(await admit(tenant, eventId, token)).toBe(entry.id);
    expect(await room.leave(callerOf(tenant), tenant, eventId, entry.id)).toMatchObject({ status: 'left' });
    await expect(admit(tenant, eventId, token)).rejects.toMatchObject({ code: 'admission_token_invalid', message: expect.stringContaining('left the waiting room') });
    expect(await room.leave(callerOf(tenant), tenant, eventId, entry.id)).toMatchObject({ status: 'left' });
  });

  it('releases the seats an admission held when its entry leaves: nothing could sell that hold any more', async () => {
    const { tenant, eventId } = await eventWithRoom(10);
    const [leaving, staying] = [await room.join(callerOf(tenant), tenant, eventId), await room.join(callerOf(tenant), tenant, eventId)];
    const holdFor = async (entryId: string, seatId: string) =>
      (await new SeatHoldRepository(prisma).create(tenant, {
        id: newId('hold'),
        event_id: eventId,
        seats: [{ id: seatId, tier_id: 'tier_1' }],
        purpose: 'sale',
        created_at: now,
        expires_at: new Date(now.getTime() + 600_000),
        admission_entry_id: entryId,
      }))!.hold;
    const [leavingHold, stayingHold] = [await holdFor(leaving.id, 'S:1:1'), await holdFor(staying.id, 'S:1:2')];

    await room.leave(callerOf(tenant), tenant, eventId, leaving.id);
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: leavingHold.id }, select: { status: true } })).toEqual({ status: 'released' });
    expect(await prisma.seatHold.findUniqueOrThrow({ where: { id: stayingHold.id }, select: { status: true } })).toEqual({ status: 'active' });
    expect(await prisma.seatClaim.findMany({ where: { event_id: eventId }, select: { seat_id: true } })).toEqual([{ seat_id: 'S:1:2' }]);
    const released = ofType(await publishedOn(prisma, TICKETING_SEAT_TOPIC, eventId), 'seat.released');
    expect(released.map((message) => message.data)).toEqual([{ event_id: eventId, seat_ids: ['S:1:1'], hold_id: leavingHold.id, reason: 'released' }]);
  });

  it('has no room for an event without one enabled; another tenant’s event is not found', async () => {
    const { tenant, eventId } = await eventWithRoom(null, false);
    await expect(room.join(callerOf(tenant), tenant, eventId)).rejects.toMatchObject({ code: 'waiting_room_disabled', status: 409 });
    const enabled = await eventWithRoom(10);
    const stranger: Tenant = { accountId: newId('acct'), mode: 'test' };
    await expect(room.join(callerOf(stranger), stranger, enabled.eventId)).rejects.toMatchObject({ code: 'resource_missing', status: 404 });
  });

  it('takes newcomers only in a published event’s room, as catalog has its status when this copy does not say published; those already in can still read and leave', async () => {
    const { tenant, eventId } = await eventWithRoom(10);
    const inside = await room.join(callerOf(tenant), tenant, eventId);
    for (const status of ['canceled', 'completed', 'draft']) {
      catalogRooms.set(tenant, eventId, { enabled: true, admissionRatePerMinute: 10 }, status);
      await new EventSettingsRepository(prisma).save(tenant, { event_id: eventId, status, waiting_room_enabled: true, admission_rate_per_minute: 10 }, new Date());
      await expect(room.join(callerOf(tenant), tenant, eventId)).rejects.toMatchObject({ code: 'event_not_on_sale', message: `The event is ${status}; only a published event's waiting room takes newcomers.` });
    }
    const unheardOf = newId('evt');
    catalogRooms.set(tenant, unheardOf, { enabled: true, admissionRatePerMinute: 10 }, 'canceled');
    await expect(room.join(callerOf(tenant), tenant, unheardOf)).rejects.toMatchObject({ code: 'event_not_on_sale' });
    // Published a moment ago: the copy still says draft, catalog says published, and catalog is right.
    const justPublished = newId('evt');
    catalogRooms.set(tenant, justPublished, { enabled: true, admissionRatePerMinute: 10 });
    await new EventSettingsRepository(prisma).save(tenant, { event_id: justPublished, status: 'draft', waiting_room_enabled: true, admission_rate_per_minute: 10 }, new Date());
    expect(await room.join(callerOf(tenant), tenant, justPublished)).toMatchObject({ status: 'admitted' });
    expect((await room.read(callerOf(tenant), tenant, eventId, inside.id)).state).toMatchObject({ length: 0, admitted: 1 });
    expect(await room.leave(callerOf(tenant), tenant, eventId, inside.id)).toMatchObject({ status: 'left' });
    expect(ofType(await publishedOn(prisma, TICKETING_QUEUE_TOPIC, eventId), 'queue.joined')).toHaveLength(1);
  });

  it('opens a room catalog enabled before this copy of the setting heard of it', async () => {
    const { tenant, eventId } = await eventWithRoom(null, false);
    catalogRooms.set(tenant, eventId, { enabled: true, admissionRatePerMinute: 1 });
    expect(await room.join(callerOf(tenant), tenant, eventId)).toMatchObject({ status: 'admitted' });
    expect(await room.join(callerOf(tenant), tenant, eventId)).toMatchObject({ status: 'waiting', position: 1 });
    expect((await room.read(callerOf(tenant), tenant, eventId, '')).state).toMatchObject({ length: 1, admitted: 1, admission_rate_per_minute: 1 });
  });

  it('says an admission ends when its token stops being accepted: the token’s expiry, a whole second', async () => {
    const { tenant, eventId } = await eventWithRoom(10);
    now = new Date(now.getTime() + 750);
    const entry = await room.join(callerOf(tenant), tenant, eventId);
    expect(entry.admitted_at).toEqual(now);
    // Ten minutes after admission, down to the second the token's `exp` can say.
    expect(entry.admission_expires_at).toEqual(new Date(Math.floor((now.getTime() + 600_000) / 1000) * 1000));
    expect(tokens.verify(tokens.sign({ entryId: entry.id, eventId }, entry.admission_expires_at!))?.expiresAt).toEqual(entry.admission_expires_at);
    later(0.25); // back on a whole second, as the tests after this one expect
  });

  it('lets through issuance only with a valid token to the event, while the room is enabled', async () => {
    const { tenant, eventId } = await eventWithRoom(10);
    const entry = await room.join(callerOf(tenant), tenant, eventId);
    const token = tokens.sign({ entryId: entry.id, eventId }, entry.admission_expires_at!);
    expect(await admit(tenant, eventId, token)).toBe(entry.id);
    await expect(admit(tenant, eventId, '')).rejects.toMatchObject({ code: 'admission_token_required', status: 403 });
    await expect(admit(tenant, eventId, `${token}x`)).rejects.toMatchObject({ code: 'admission_token_invalid', status: 403 });
    const forged = new AdmissionTokens('another-secret-0123456789abcdef').sign({ entryId: entry.id, eventId }, entry.admission_expires_at!);
    await expect(admit(tenant, eventId, forged)).rejects.toMatchObject({ code: 'admission_token_invalid' });
    const expired = tokens.sign({ entryId: entry.id, eventId }, new Date(Date.now() - 1000));
    await expect(admit(tenant, eventId, expired)).rejects.toMatchObject({ code: 'admission_token_invalid' });
    const otherEvent = await eventWithRoom(10);
    await expect(admit(otherEvent.tenant, otherEvent.eventId, token)).rejects.toMatchObject({ code: 'admission_token_invalid' });
    const open = await eventWithRoom(null, false);
    expect(await admit(open.tenant, open.eventId, '', false)).toBeNull();
  });

  it('holds a sale to the room catalog had enabled when it held the units, whatever this copy says', async () => {
    const { tenant, eventId } = await eventWithRoom(null, false);
    const screened = await gate.screen(tenant, eventId, '');
    await expect(screened.settle(true)).rejects.toMatchObject({ code: 'admission_token_required', status: 403 });
    await expect(screened.settle(false)).resolves.toBeNull();
    const entryId = newId('qen');
    const token = tokens.sign({ entryId, eventId }, new Date(Date.now() + 60_000));
    await expect((await gate.screen(tenant, eventId, token)).settle(true)).resolves.toMatchObject({ entryId });
    await expect((await gate.screen(tenant, eventId, 'not-a-token')).settle(true)).rejects.toMatchObject({ code: 'admission_token_invalid' });
  });

  it('uses no admission for a sale catalog held with the room disabled, though this copy still asked for a token', async () => {
    const { tenant, eventId } = await eventWithRoom(10);
    const entry = await room.join(callerOf(tenant), tenant, eventId);
    const token = tokens.sign({ entryId: entry.id, eventId }, entry.admission_expires_at!);
    await expect(gate.screen(tenant, eventId, '')).rejects.toMatchObject({ code: 'admission_token_required' });
    await expect((await gate.screen(tenant, eventId, token)).settle(false)).resolves.toBeNull();
  });

  it('refuses a join with 503 while Redis is unreachable, and has queued no one when Redis is back', async () => {
    const { tenant, eventId } = await eventWithRoom(60);
    const redisComingBack = await lateForwarder({ host: '127.0.0.1', port: 6379 });
    const unreachable = await connectRedis(`redis://127.0.0.1:${redisComingBack.port}`, logger, { inBackground: true });
    try {
      const roomWithoutRedis = new WaitingRoomUseCase(prisma, catalogRooms, new QueueStore(unreachable, 600_000), logger, () => now);
      await expect(roomWithoutRedis.join(callerOf(tenant), tenant, eventId)).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });

      await redisComingBack.open();
      await waitFor('the client to reconnect', async () => (unreachable.isReady ? true : undefined), { timeoutMs: 15_000 });
      expect((await roomWithoutRedis.read(callerOf(tenant), tenant, eventId, '')).state).toMatchObject({ length: 0, admitted: 0 });
    } finally {
      unreachable.destroy();
      await redisComingBack.close();
    }
  });
});
