import { isKeyKind, isMode, type KeyKind, type Mode } from '@ticketing/auth';

/** proto3 has no null for scalars: an empty string means "not set", which the public JSON says with null. */
export function nullIfEmpty(value: string): string | null {
  return value === '' ? null : value;
}

export function modeOf(value: string): Mode {
  if (!isMode(value)) throw new Error(`backend answered an unknown mode '${value}'`);
  return value;
}

export function keyKindOf(value: string): KeyKind {
  if (!isKeyKind(value)) throw new Error(`backend answered an unknown key kind '${value}'`);
  return value;
}

/** The numeric twin of nullIfEmpty, for counts where 0 means "not set". */
export function nullIfZero(value: number): number | null {
  return value === 0 ? null : value;
}

/** `value` as one of `known`, or a loud failure: the backend answered a value this gateway does not know. */
export function oneOf<T extends string>(known: readonly T[], value: string, what: string): T {
  const found = known.find((candidate) => candidate === value);
  if (found === undefined) throw new Error(`backend answered an unknown ${what} '${value}'`);
  return found;
}
