import { ApiError } from '@ticketing/errors';
import { optionalText, requiredText } from '@ticketing/fields';
import type { TicketingTicket, TicketStatus } from './ticket';

/**
 * Changes of an issued ticket (decision 0032). Only a `valid` ticket changes: a transfer gives it
 * a new holder and a new code (code_version + 1); a refund or a revocation retires it and gives
 * its unit back to its tier. Each is kept in the ticket's history.
 */
export type TicketChangeKind = 'transfer' | 'refund' | 'revoke' | 'cancel';

/** The changes that take a ticket out of its tier's count, and the status each leaves. */
export const RETIREMENTS = {
  refund: { status: 'refunded', verb: 'refunded', message: 'ticket.refunded' },
  revoke: { status: 'revoked', verb: 'revoked', message: 'ticket.revoked' },
} as const satisfies Record<string, { status: TicketStatus; verb: string; message: string }>;
export type Retirement = keyof typeof RETIREMENTS;

const REASON_MAX_LENGTH = 500;

/** A revocation must say why; a refund may. */
export function validRetirementReason(retirement: Retirement, reason: string): string | null {
  return retirement === 'revoke' ? requiredText(reason, 'reason', REASON_MAX_LENGTH) : optionalText(reason, 'reason', REASON_MAX_LENGTH);
}

/** A valid ticket that no upgrade is moving can change now. */
export function isChangeable(ticket: TicketingTicket): boolean {
  return ticket.status === 'valid' && ticket.pending_change_id === null;
}

/** Refuses a change of a ticket that is no longer valid, or that an upgrade is moving. */
export function assertChangeable(ticket: TicketingTicket, verb: string): void {
  if (ticket.status !== 'valid') {
    throw new ApiError('ticket_not_valid', `Ticket '${ticket.id}' is ${ticket.status}; only a valid ticket can be ${verb}.`);
  }
  if (ticket.pending_change_id) throw upgradeUnderWay(ticket);
}

function upgradeUnderWay(ticket: TicketingTicket): ApiError {
  return new ApiError('ticket_changed', `Ticket '${ticket.id}' is being upgraded (change '${ticket.pending_change_id}'); read it again once the upgrade ends.`);
}

/**
 * Why a change found the ticket other than it was read: another change won meanwhile. `now` is
 * the ticket as that change left it.
 */
export function lostRace(now: TicketingTicket, verb: string): ApiError {
  if (now.status !== 'valid') return new ApiError('ticket_not_valid', `Ticket '${now.id}' was ${now.status} by another request meanwhile; it can no longer be ${verb}.`);
  if (now.pending_change_id) return upgradeUnderWay(now);
  return new ApiError('ticket_changed', `Ticket '${now.id}' was changed by another request meanwhile (it is now at code version ${now.code_version}); read it again before changing it.`);
}
