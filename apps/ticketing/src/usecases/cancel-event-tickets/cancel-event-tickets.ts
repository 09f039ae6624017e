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

/** Cancels up to a batch of the event's valid tickets in the caller's transaction; answers how many. */
async function cancelBatch(tx: TicketingDb, tenant: Tenant, eventId: string): Promise<number> {
  const tickets = new TicketRepository(tx);
  const batch = await tickets.lockValidOfEvent(tenant, eventId, CANCEL_BATCH);
  const changes = batch.map((ticket) => ({ ticket, change: newChange(tenant, 'ticket.canceled', { ...ticket, status: 'canceled' }, { reason: CANCEL_REASON }) }));
  if (changes.length > 0) await tickets.cancel(tenant, changes, CANCEL_REASON);
  return changes.length;
}

/**
 * The policy for a canceled event (decision 0032): each of its valid tickets not being upgraded
 * becomes `canceled`, kept in its history and announced with `ticket.canceled`. Checked-in,
 * refunded and revoked tickets stay as they are. Money is not moved here. Each batch of 500 is a
 * transaction of its own, so an event of any size is canceled: in one transaction, 50,000
 * tickets outlasted its 10 s limit every time, and the cancellation was never applied (a
 * black-box probe). Answers how many it canceled.
 */
export async function cancelValidTickets(prisma: PrismaClient, tenant: Tenant, eventId: string): Promise<number> {
  let canceled = 0;
  for (;;) {
    const batch = await prisma.$transaction((tx) => cancelBatch(tx, tenant, eventId));
    if (batch === 0) return canceled;
    canceled += batch;
  }
}

/**
 * Cancels the tickets of canceled events that are still valid: those of an issuance or an
 * upgrade that was in flight when the cancellation was applied, which the consumer had to leave,
 * and any the consumer did not get to (its process stopped between batches) (decision 0032).
 * Runs with the re-driver, over the events canceled in the last day.
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
      canceled += await cancelValidTickets(this.prisma, tenant, eventId);
    }
    return canceled;
  }
}
