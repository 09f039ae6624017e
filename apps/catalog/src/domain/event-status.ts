import { EVENT_STATUSES, type EventStatus } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';

/**
 * An event's lifecycle: draft → published → canceled | completed, and draft → canceled (a draft
 * may already have comps to cancel; decision 0013). Canceled and completed are final: the event,
 * its tiers and its seat map no longer change.
 */
export { EVENT_STATUSES, type EventStatus };

const NEXT_STATUSES: Record<EventStatus, readonly EventStatus[]> = {
  draft: ['published', 'canceled'],
  published: ['canceled', 'completed'],
  canceled: [],
  completed: [],
};

export function isEventStatus(value: string): value is EventStatus {
  return (EVENT_STATUSES as readonly string[]).includes(value);
}

export function eventStatus(value: string, param = 'status'): EventStatus {
  if (!isEventStatus(value)) throw new ApiError('parameter_invalid', `${param} must be one of ${EVENT_STATUSES.join(', ')}.`, { param });
  return value;
}

export function isFinal(status: EventStatus): boolean {
  return NEXT_STATUSES[status].length === 0;
}

/** Asking for the status the event already has is a no-op, not an error. */
export function assertTransition(from: EventStatus, to: EventStatus): void {
  if (from === to || NEXT_STATUSES[from].includes(to)) return;
  const allowed = NEXT_STATUSES[from];
  const hint = allowed.length === 0 ? `a ${from} event is final` : `a ${from} event can only become ${allowed.join(' or ')}`;
  throw new ApiError('event_status_transition_invalid', `Cannot move the event from ${from} to ${to}: ${hint}.`, { param: 'status' });
}

export function assertEditable(status: EventStatus): void {
  if (isFinal(status)) throw new ApiError('event_finalized', `The event is ${status}; it, its tiers and its seat map can no longer change.`);
}
