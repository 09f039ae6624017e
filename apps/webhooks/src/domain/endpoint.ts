import type { Mode } from '@ticketing/auth';
import { ALL_WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, type EndpointDisabledReason } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import { optionalText } from '@ticketing/fields';

/** A webhook endpoint as stored; its secrets stay sealed until a delivery is signed. */
export interface WebhookEndpoint {
  id: string;
  account_id: string;
  mode: Mode;
  url: string;
  enabled_events: string[];
  description: string | null;
  metadata: Record<string, string>;
  /** null while enabled. */
  disabled_reason: EndpointDisabledReason | null;
  sealed_secret: string;
  sealed_previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Endpoints an account may have in one mode, Stripe's limit: each event is recorded with its
 * deliveries by one statement that carries this many delivery ids (decision 0053).
 */
export const ENDPOINTS_PER_TENANT = 16;

/** Far more than there are event types: a list this long can only be a mistake. */
const ENABLED_EVENTS_MAX = 100;
const DESCRIPTION_MAX_LENGTH = 5000;

/** How long a rotated-out secret keeps signing beside the new one, so receivers can switch over. */
export const PREVIOUS_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

const knownTypes = new Set(WEBHOOK_EVENT_TYPES);

/** The types to deliver: known ones, each once, or "*" alone for every type. */
export function validEnabledEvents(types: readonly string[]): string[] {
  const unique = [...new Set(types)];
  if (unique.length === 0 || unique.length > ENABLED_EVENTS_MAX) {
    throw new ApiError('parameter_invalid', `enabled_events must list 1 to ${ENABLED_EVENTS_MAX} event types, or ["*"] for all of them.`, { param: 'enabled_events' });
  }
  if (unique.includes(ALL_WEBHOOK_EVENTS)) {
    if (unique.length > 1) throw new ApiError('parameter_invalid', 'enabled_events takes "*" alone: it already means every event type.', { param: 'enabled_events' });
    return unique;
  }
  const unknown = unique.find((type) => !knownTypes.has(type));
  if (unknown !== undefined) {
    throw new ApiError('parameter_invalid', `enabled_events names ${JSON.stringify(unknown)}, which is not an event type. The types are listed under "webhooks" in /v1/openapi.json.`, {
      param: 'enabled_events',
    });
  }
  return unique;
}

export const validEndpointDescription = (description: string) => optionalText(description, 'description', DESCRIPTION_MAX_LENGTH);
