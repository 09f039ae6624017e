import { randomFillSync } from 'node:crypto';
import { decodeTime, monotonicFactory } from 'ulid';

/**
 * Resource ids are `<prefix>_<ULID>`: the ULID sorts by creation time, so "newest first" is
 * "id descending" everywhere (database indexes, cursors, Kafka keys).
 */
export const ID_PREFIXES = [
  'acct', 'key', 'org', 'evt', 'tier', 'dsc', 'dtr', 'tkt', 'hold', 'qen', 'cus', 'seg', 'pi',
  'pay', 'cs', 'lst', 'stf', 'we', 'ntf', 'dlv', 'po', 'req', 'msg', 'iss', 'tch', 'ch', 'txn', 'ca', 're',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/**
 * ulid's default source asks the OS for one random byte per character (16 calls per id); this
 * one draws the same cryptographic randomness 256 values at a time.
 */
const randomPool = new Uint32Array(256);
let poolIndex = randomPool.length;
function pooledRandomFraction(): number {
  if (poolIndex === randomPool.length) {
    randomFillSync(randomPool);
    poolIndex = 0;
  }
  return randomPool[poolIndex++]! / 2 ** 32;
}

const nextUlid = monotonicFactory(pooledRandomFraction);

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${nextUlid()}`;
}

const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when `value` is an id this platform could have issued with `prefix`. */
export function isId(value: string, prefix: IdPrefix): boolean {
  const [head, body] = value.split('_', 2);
  return head === prefix && body !== undefined && ULID_PATTERN.test(body) && value.length === prefix.length + 27;
}

/** When an id this platform issued was made: its ULID's time, to the millisecond. */
export function idTime(id: string): Date {
  return new Date(decodeTime(id.slice(id.indexOf('_') + 1)));
}
