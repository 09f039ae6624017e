import type { Tenant } from '@ticketing/auth';
import type { PrismaClient, TicketingDb } from '../../db';
import { EventSettingsRepository } from '../../repositories/event-settings.repository';
import { TicketRepository } from '../../repositories/ticket.repository';
import { newChange } from '../change-ticket/change-message';

const CANCEL_BATCH = 500;
const CANCEL_REASON = 'The event was canceled.';

/**
 * How long after an event's cancellation its tickets are looked at again: far longer than an
 * issuance or upgrade can stay in flight (their holds expire in a minute; the re-driver settles
 * them within seconds once catalog answers).
 */
export const LATE_CANCELLATION_WINDOW_MS = 24 * 3600 * 1000;

/**
 * The policy for a canceled event (decision 0032): each of its valid tickets not being upgraded
 * becomes `canceled`, kept in its history and announced with `ticket.canceled`, in the caller's
 * transaction. Checked-in, refunded and revoked tickets stay as they are. Money is not moved
 * here. Answers how many it canceled.
 */
export async function cancelValidTicketsOf(tx: TicketingDb, tenant: Tenant, eventId: string): Promise<number> {
  const tickets = new TicketRepository(tx);
  let canceled = 0;
  for (;;) {
    const batch = await tickets.lockValidOfEvent(tenant, eventId, CANCEL_BATCH);
    if (batch.length === 0) return canceled;
    const changes = batch.map((ticket) => ({ ticket, change: newChange(tenant, 'ticket.canceled', { ...ticket, status: 'canceled' }, { reason: CANCEL_REASON }) }));
    await tickets.cancel(tenant, changes, CANCEL_REASON);
    canceled += batch.length;
  }
}

/**
 * Cancels the tickets that became valid after their event's cancellation was applied: those of
 * an issuance or an upgrade that was in flight at that moment, which the consumer had to leave
 * (decision 0032). Runs with the re-driver, over the events canceled in the last day.
 */
export class CancelLateTicketsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async execute(): Promise<number> {
    const since = new Date(this.clock().getTime() - LATE_CANCELLATION_WINDOW_MS);
    let canceled = 0;
    for (const { tenant, eventId } of await new EventSettingsRepository(this.prisma).canceledWithValidTickets(since)) {
      canceled += await this.prisma.$transaction((tx) => cancelValidTicketsOf(tx, tenant, eventId));
    }
    return canceled;
  }
}
