import { redisAnswer, type RedisClient } from '@ticketing/redis';
import type { QueueEntry, QueueEntryStatus, QueueState } from '../domain/waiting-room';

/**
 * The waiting rooms' queues in Redis (decision 0034), shared by every ticketing replica. Per
 * event: a sorted set of waiting entry ids by join order, a hash of entries, and a hash of the
 * room's state (join sequence, admitted count, admission clock and the rate it runs at). Each
 * operation is one Lua script, so it first admits, atomically, the entries whose turn has come
 * (first in, first out, at the event's rate: a token bucket holding at most one minute of
 * admissions, which keeps what it earned when the rate changes), then does its work on a queue
 * no other call can change meanwhile. A room's keys expire once no call has touched them for
 * `idleTtlMs` (a week by default): an event's queue goes away after its on-sale.
 */
const ADMIT = `
local waiting, entries, state = KEYS[1], KEYS[2], KEYS[3]
local now, rate, idle_ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4])
local admitted = {}
local function admit()
  local interval = 60000 / rate
  local clock = tonumber(redis.call('HGET', state, 'clock') or (now - 60000))
  local earned_at = tonumber(redis.call('HGET', state, 'rate') or rate)
  if earned_at ~= rate then
    -- The rate changed: what the room earned since its clock was earned at the old rate. Keep
    -- that number of admissions, not the time, or the whole wait would pay out at the new rate.
    local earned = math.min(now - clock, 60000) / (60000 / earned_at)
    clock = math.max(now - earned * interval, now - 60000)
  end
  local slots = math.floor((now - clock) / interval)
  if slots > 0 then
    local popped = redis.call('ZPOPMIN', waiting, slots)
    for i = 1, #popped, 2 do
      local entry = cjson.decode(redis.call('HGET', entries, popped[i]))
      entry.status = 'admitted'
      entry.admitted_at = now
      redis.call('HSET', entries, popped[i], cjson.encode(entry))
      admitted[#admitted + 1] = popped[i]
    end
    redis.call('HINCRBY', state, 'admitted', #popped / 2)
    clock = math.max(clock + (#popped / 2) * interval, now - 60000)
  end
  redis.call('HSET', state, 'clock', tostring(clock), 'rate', tostring(rate))
  for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, idle_ttl) end
end
local function view(id)
  local raw = redis.call('HGET', entries, id)
  if not raw then return false end
  local entry = cjson.decode(raw)
  local rank = redis.call('ZRANK', waiting, id)
  if rank then entry.position = rank + 1 end
  return entry
end
local function answer(entry, left_now, joined_now)
  return cjson.encode({ entry = entry, admitted = admitted, left_now = left_now or false, joined_now = joined_now or false, length = redis.call('ZCARD', waiting), admitted_total = tonumber(redis.call('HGET', state, 'admitted') or '0') })
end
`;

/** How long a room's keys stay in Redis after the last call that touched them. */
export const QUEUE_IDLE_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * Queues the newcomer, then admits: with room to spare, it is admitted in the same call. A join
 * under a key (ARGV[5], the hash of the client's Idempotency-Key) that already queued someone
 * answers that entry instead, so a retry whose first reply was lost takes no second place.
 */
const JOIN = `${ADMIT}
local id, join_key = ARGV[3], ARGV[5]
local joins = KEYS[4]
if join_key ~= '' then
  local earlier = redis.call('HGET', joins, join_key)
  if earlier and redis.call('HEXISTS', entries, earlier) == 1 then
    admit()
    return answer(view(earlier))
  end
  redis.call('HSET', joins, join_key, id)
end
local seq = redis.call('HINCRBY', state, 'seq', 1)
redis.call('HSET', entries, id, cjson.encode({ id = id, status = 'waiting', joined_at = now }))
redis.call('ZADD', waiting, seq, id)
admit()
return answer(view(id), false, true)
`;

const READ = `${ADMIT}
admit()
if ARGV[3] == '' then return answer(false) end
return answer(view(ARGV[3]))
`;

const LEAVE = `${ADMIT}
admit()
local id = ARGV[3]
local entry = view(id)
local left_now = entry and entry.status ~= 'left'
if left_now then
  redis.call('ZREM', waiting, id)
  entry.status = 'left'
  entry.position = nil
  redis.call('HSET', entries, id, cjson.encode(entry))
end
return answer(entry, left_now)
`;

/** A room's keys, in the order the scripts name them (KEYS[1..4]); `joins` maps a join's key hash to the entry it queued. */
const roomKeys = (eventId: string) => {
  const prefix = `ticketing:queue:${eventId}`;
  return { waiting: `${prefix}:waiting`, entries: `${prefix}:entries`, state: `${prefix}:state`, joins: `${prefix}:joins` };
};

interface StoredEntry {
  id: string;
  status: QueueEntryStatus;
  joined_at: number;
  admitted_at?: number;
  position?: number;
}

interface ScriptAnswer {
  entry: StoredEntry | false;
  /** Entries this call admitted (their turn came), for queue.admitted. */
  admitted: string[] | Record<string, never>;
  /** Whether this call took the entry out (a leave of an entry that had left already did not). */
  left_now: boolean;
  /** Whether this call queued the entry (a join repeated under its key did not). */
  joined_now: boolean;
  length: number;
  admitted_total: number;
}

export interface QueueAnswer {
  entry: QueueEntry | null;
  state: QueueState;
  /** Entry ids admitted during this call. */
  admittedNow: string[];
  /** Whether this call took its entry out of the queue. */
  leftNow: boolean;
  /** Whether this call queued its entry. */
  joinedNow: boolean;
}

/**
 * The waiting rooms, in Redis. While Redis is down or does not answer, each call fails with 503
 * `service_unavailable` after at most 5 s (decision 0044). node-redis itself gives up on a
 * command that has waited about as long for a connection (seen: refused after 5.0 s, and not run
 * once Redis was back), so a join its caller was told failed does not queue anyone later. Sales
 * of events without a room do not come here and go on.
 */
export class QueueStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly admissionTtlMs: number,
    private readonly idleTtlMs: number = QUEUE_IDLE_TTL_MS,
  ) {}

  /** Queues `entryId`; with `joinKey`, only if no join under that key queued an entry already (then that entry answers). */
  join(eventId: string, rate: number, entryId: string, at: Date, joinKey: string | null): Promise<QueueAnswer> {
    return this.run(JOIN, eventId, rate, entryId, at, joinKey ?? '');
  }

  /** The room's state, with the entry when `entryId` is given (null if it never joined). */
  read(eventId: string, rate: number, entryId: string | null, at: Date): Promise<QueueAnswer> {
    return this.run(READ, eventId, rate, entryId ?? '', at);
  }

  /** Takes an entry out: a waiting one leaves its place, an admitted one gives its admission up. */
  leave(eventId: string, rate: number, entryId: string, at: Date): Promise<QueueAnswer> {
    return this.run(LEAVE, eventId, rate, entryId, at);
  }

  /** Whether the entry left the queue, after admission or before. */
  async hasLeft(eventId: string, entryId: string): Promise<boolean> {
    const raw = await redisAnswer(this.redis.hGet(roomKeys(eventId).entries, entryId));
    return raw !== null && raw !== undefined && (JSON.parse(raw) as StoredEntry).status === 'left';
  }

  private async run(script: string, eventId: string, rate: number, entryId: string, at: Date, joinKey = ''): Promise<QueueAnswer> {
    const { waiting, entries, state, joins } = roomKeys(eventId);
    const raw = await redisAnswer(this.redis.eval(script, { keys: [waiting, entries, state, joins], arguments: [String(at.getTime()), String(rate), entryId, String(this.idleTtlMs), joinKey] }));
    const answer = JSON.parse(String(raw)) as ScriptAnswer;
    return {
      entry: answer.entry ? this.toEntry(eventId, answer.entry) : null,
      state: { event_id: eventId, length: answer.length, admitted: answer.admitted_total, admission_rate_per_minute: rate },
      // cjson writes an empty table as {}.
      admittedNow: Array.isArray(answer.admitted) ? answer.admitted : [],
      leftNow: answer.left_now,
      joinedNow: answer.joined_now,
    };
  }

  private toEntry(eventId: string, stored: StoredEntry): QueueEntry {
    const admittedAt = stored.admitted_at === undefined ? null : new Date(stored.admitted_at);
    return {
      id: stored.id,
      event_id: eventId,
      status: stored.status,
      position: stored.status === 'waiting' ? (stored.position ?? null) : null,
      joined_at: new Date(stored.joined_at),
      admitted_at: admittedAt,
      // The admission token's expiry is in whole seconds (a JWT's `exp`): the entry says that instant, not one up to a second later.
      admission_expires_at: admittedAt && new Date(Math.floor((admittedAt.getTime() + this.admissionTtlMs) / 1000) * 1000),
    };
  }
}
