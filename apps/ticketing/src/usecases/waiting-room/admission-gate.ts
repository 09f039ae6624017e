import { tenantKey, type Tenant } from '@ticketing/auth';
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../db';
import { admissionRefused } from '../../domain/waiting-room';
import { EventSettingsRepository } from '../../repositories/event-settings.repository';
import type { AdmissionTokens, VerifiedAdmission } from '../../waiting-room/admission-tokens';
import type { QueueStore } from '../../waiting-room/queue-store';

/**
 * How long this process trusts what it read of an event's waiting room. Every sale asks, before
 * anything else, so under an on-sale rush a database read per request would queue every
 * request, sold-out ones included, behind the connection pool. A second of staleness is within
 * what the copy already lags catalog by, and a room enabled meanwhile is enforced anyway when the
 * units are held (decision 0034).
 */
const SETTING_TTL_MS = 1_000;
const MAX_CACHED_EVENTS = 10_000;

/**
 * A sale's admission as screened before its units were held. Catalog says, as it holds them,
 * whether the event's room was enabled then; `settle` decides the admission by that, and answers
 * the admission the sale uses (its entry, and when it lapses), or null when it needs none.
 */
export interface ScreenedAdmission {
  settle(roomEnabledAtHold: boolean): Promise<VerifiedAdmission | null>;
}

/**
 * What issuance asks of the waiting room (decision 0034): while the event's room is enabled, a
 * valid admission token to this event is required, whose entry has not left the queue since,
 * and the entry it admits is recorded on the issuance, whose unique index refuses a second use.
 * Events without an enabled room pass.
 *
 * A sale is screened before its units are held by this process's copy of the setting, so that
 * buyers the room keeps out hold nothing; that copy lags catalog. The hold's own answer settles
 * it: a sale let through while the room was, in fact, enabled must show a valid token then, or
 * its units go back. A room enabled a moment ago is therefore enforced at once; one disabled a
 * moment ago may still ask for tokens until the copy has caught up.
 */
export class AdmissionGate {
  /**
   * Whether each event's room is enabled, read at most once a second per event: the sales that
   * miss together (a rush's first requests, or every request when the second ends) wait for one
   * read instead of each making its own (lru-cache's `fetch` shares the one under way).
   */
  private readonly roomEnabled: LRUCache<string, { enabled: boolean }, { tenant: Tenant; eventId: string }>;

  constructor(
    prisma: PrismaClient,
    private readonly tokens: AdmissionTokens,
    private readonly queues: QueueStore,
  ) {
    this.roomEnabled = new LRUCache({
      max: MAX_CACHED_EVENTS,
      ttl: SETTING_TTL_MS,
      fetchMethod: async (_key, _stale, { context: { tenant, eventId } }) => ({
        enabled: (await new EventSettingsRepository(prisma).find(tenant, eventId))?.waiting_room_enabled ?? false,
      }),
    });
  }

  /** Refuses a sale the room keeps out by this process's copy of the setting; the rest is settled once the units are held. */
  async screen(tenant: Tenant, eventId: string, token: string): Promise<ScreenedAdmission> {
    const screened = (await this.isRoomEnabled(tenant, eventId)) ? await this.admission(eventId, token) : null;
    return { settle: async (roomEnabledAtHold) => (roomEnabledAtHold ? (screened ?? (await this.admission(eventId, token))) : null) };
  }

  /** The admission `token` proves to the event; refused when it is missing, not one of ours, for another event, expired, or its entry left. */
  private async admission(eventId: string, token: string): Promise<VerifiedAdmission> {
    if (!token) throw admissionRefused('required', eventId);
    const admission = this.tokens.verify(token);
    if (!admission || admission.eventId !== eventId) throw admissionRefused('invalid', eventId);
    if (await this.queues.hasLeft(eventId, admission.entryId)) throw admissionRefused('left', eventId);
    return admission;
  }

  private async isRoomEnabled(tenant: Tenant, eventId: string): Promise<boolean> {
    const known = await this.roomEnabled.fetch(`${tenantKey(tenant)}/${eventId}`, { context: { tenant, eventId } });
    // Undefined only when the read was abandoned (the entry evicted while it ran): ask again, not guess.
    if (!known) throw new Error(`the waiting-room setting of event ${eventId} was not read; retry the call`);
    return known.enabled;
  }
}
