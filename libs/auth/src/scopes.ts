/** Every scope of the spec (section 5). Publishable keys are confined to the checkout scopes. */
export const SECRET_SCOPES = [
  'events:read',
  'events:write',
  'tickets:read',
  'tickets:issue',
  'tickets:manage',
  'customers:write',
  'payments:write',
  'marketplace:read',
  'reports:read',
  'scanning:write',
  'staff:manage',
  'webhooks:manage',
  'keys:manage',
  'payouts:read',
  'payouts:claim',
] as const;

export const CHECKOUT_SCOPES = ['checkout:read', 'checkout:write'] as const;

export const ALL_SCOPES = [...SECRET_SCOPES, ...CHECKOUT_SCOPES] as const;
export type Scope = (typeof ALL_SCOPES)[number];

/** Holding the key scope also grants these (spec: "Implied access"). */
const IMPLIED_SCOPES: Partial<Record<Scope, readonly Scope[]>> = {
  'payouts:claim': ['payouts:read'],
};

export function isScope(value: string): value is Scope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

/** The scopes a key may actually use: publishable keys never get more than checkout. */
export function effectiveScopes(kind: KeyKind, stored: readonly string[]): Set<Scope> {
  const held = stored.filter(isScope).flatMap((scope) => [scope, ...(IMPLIED_SCOPES[scope] ?? [])]);
  const allowed = kind === 'publishable' ? held.filter((scope) => (CHECKOUT_SCOPES as readonly string[]).includes(scope)) : held;
  return new Set(allowed);
}

export const KEY_KINDS = ['secret', 'publishable'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

export const MODES = ['test', 'live'] as const;
export type Mode = (typeof MODES)[number];

export function isMode(value: string): value is Mode {
  return (MODES as readonly string[]).includes(value);
}

export function isKeyKind(value: string): value is KeyKind {
  return (KEY_KINDS as readonly string[]).includes(value);
}
