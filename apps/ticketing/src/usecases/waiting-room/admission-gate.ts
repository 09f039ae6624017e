import type { Tenant } from '@ticketing/auth';
import type { PrismaClient } from '../../db';
import { admissionRefused } from '../../domain/waiting-room';
import { EventSettingsRepository } from '../../repositories/event-settings.repository';
import type { AdmissionTokens } from '../../waiting-room/admission-tokens';

/**
 * What issuance asks of the waiting room (decision 0034): while the event's room is enabled, a
 * valid admission token to this event is required, and the entry it admits is recorded on the
 * issuance, whose unique index refuses a second use. Events without an enabled room pass.
 */
export class AdmissionGate {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly tokens: AdmissionTokens,
  ) {}

  /** The admitted entry this issuance uses, or null when the event sells without a waiting room. */
  async admit(tenant: Tenant, eventId: string, token: string): Promise<string | null> {
    const settings = await new EventSettingsRepository(this.prisma).find(tenant, eventId);
    if (!settings?.waiting_room_enabled) return null;
    if (!token) throw admissionRefused('required', eventId);
    const admission = this.tokens.verify(token);
    if (!admission || admission.eventId !== eventId) throw admissionRefused('invalid', eventId);
    return admission.entryId;
  }
}
