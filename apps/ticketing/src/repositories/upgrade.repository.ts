import { isMode, type Tenant } from '@ticketing/auth';
import { idTime } from '@ticketing/ids';
import type { OutboxRow } from '@ticketing/kafka';
import type { TicketingDb } from '../db';
import type { IssuanceRefusal } from '../domain/issuance';
import type { TicketingTicket } from '../domain/ticket';
import { enqueue } from './outbox-sql';
import { RETURNED_TICKET, toTicket, type TicketRow } from './ticket.repository';

export type UpgradeState = 'pending' | 'done' | 'refused';

/** An upgrade of one ticket (decision 0032), as recorded in the ticket's history. */
export interface TicketUpgrade {
  id: string;
  ticket_id: string;
  from_tier_id: string;
  to_tier_id: string;
  amount: number;
  /** How the difference was paid; null when there was nothing to pay. */
  payment_type: 'external' | 'payment_intent' | null;
  payment_reference: string | null;
  state: UpgradeState;
  refusal: IssuanceRefusal | null;
}

interface UpgradeRow {
  id: string;
  ticket_id: string;
  from_tier_id: string | null;
  to_tier_id: string | null;
  amount: bigint | null;
  payment_type: string | null;
  payment_reference: string | null;
  state: string;
  refusal: unknown;
}

const toUpgrade = (row: UpgradeRow): TicketUpgrade => ({
  id: row.id,
  ticket_id: row.ticket_id,
  from_tier_id: row.from_tier_id!,
  to_tier_id: row.to_tier_id!,
  amount: Number(row.amount),
  payment_type: row.payment_type as TicketUpgrade['payment_type'],
  payment_reference: row.payment_reference,
  state: row.state as UpgradeState,
  refusal: row.refusal as IssuanceRefusal | null,
});

const upgradeColumns = { id: true, ticket_id: true, from_tier_id: true, to_tier_id: true, amount: true, payment_type: true, payment_reference: true, state: true, refusal: true } as const;

/**
 * Upgrades in ticket_changes, and the ticket rows they move. Each step is one statement; the
 * ticket names the upgrade under way (pending_change_id) from before its unit is held, so no
 * other change, and no second upgrade, slips in between.
 */
export class UpgradeRepository {
  constructor(private readonly db: TicketingDb) {}

  /**
   * Marks the ticket as being upgraded under `changeId`, before the upgrade holds its unit, if it
   * is still valid at the version read and no change is under way. False otherwise.
   */
  async take(tenant: Tenant, ticket: Pick<TicketingTicket, 'id' | 'code_version'>, changeId: string): Promise<boolean> {
    // Raw, so `updated_at` stays: the ticket changes only if the upgrade is recorded.
    const taken = await this.db.$executeRaw`
      UPDATE tickets SET pending_change_id = ${changeId}
       WHERE id = ${ticket.id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND status = 'valid'
         AND code_version = ${ticket.code_version} AND pending_change_id IS NULL`;
    return taken === 1;
  }

  /** Frees a ticket taken for an upgrade that was never recorded (its unit was refused, or not held). */
  async letGo(tenant: Tenant, ticketId: string, changeId: string): Promise<void> {
    await this.db.$executeRaw`
      UPDATE tickets SET pending_change_id = NULL
       WHERE id = ${ticketId} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND pending_change_id = ${changeId}
         AND NOT EXISTS (SELECT 1 FROM ticket_changes c WHERE c.id = ${changeId})`;
  }

  /**
   * Frees the tickets, of every tenant, taken before `before` for an upgrade that was never
   * recorded: its process died between taking the ticket and recording the upgrade. Answers how
   * many. A change id is a ULID, so it tells when the ticket was taken, and the oldest come first:
   * a sweep looks at the 1,000 oldest tickets taken (the next sweep goes on), through the partial
   * index of taken tickets, whatever the planner knows of the table: without statistics it read
   * every ticket. The limit is written in the SQL, not a parameter, so that a generic plan knows
   * it too.
   */
  async letGoUnrecorded(before: Date): Promise<number> {
    const taken = await this.db.$queryRaw<Array<{ id: string; change_id: string }>>`
      SELECT t.id, t.pending_change_id AS change_id FROM tickets t
       WHERE t.pending_change_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ticket_changes c WHERE c.id = t.pending_change_id)
       ORDER BY t.pending_change_id LIMIT 1000`;
    const abandoned = taken.filter((ticket) => idTime(ticket.change_id) < before);
    if (abandoned.length === 0) return 0;
    return this.db.$executeRaw`
      UPDATE tickets t SET pending_change_id = NULL
        FROM unnest(${abandoned.map((ticket) => ticket.id)}::text[], ${abandoned.map((ticket) => ticket.change_id)}::text[]) AS a (id, change_id)
       WHERE t.id = a.id AND t.pending_change_id = a.change_id AND NOT EXISTS (SELECT 1 FROM ticket_changes c WHERE c.id = a.change_id)`;
  }

  /**
   * Records the upgrade as pending for the ticket it took, in one statement. Null when the ticket
   * is no longer its (a sweep of takes presumed dead let it go).
   */
  async begin(tenant: Tenant, ticket: TicketingTicket, upgrade: Omit<TicketUpgrade, 'ticket_id' | 'from_tier_id' | 'state' | 'refusal'>): Promise<TicketUpgrade | null> {
    const rows = await this.db.$queryRaw<UpgradeRow[]>`
      WITH marked AS (
        UPDATE tickets SET updated_at = now()
         WHERE id = ${ticket.id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND pending_change_id = ${upgrade.id}
        RETURNING id, tier_id, customer_id, code_version)
      INSERT INTO ticket_changes (id, account_id, mode, ticket_id, kind, code_version, from_customer_id, to_customer_id, from_tier_id, to_tier_id, amount, payment_type, payment_reference, state)
      SELECT ${upgrade.id}, ${tenant.accountId}, ${tenant.mode}, id, 'upgrade', code_version, customer_id, customer_id, tier_id, ${upgrade.to_tier_id}, ${upgrade.amount}, ${upgrade.payment_type}, ${upgrade.payment_reference}, 'pending'
        FROM marked
      RETURNING id, ticket_id, from_tier_id, to_tier_id, amount, payment_type, payment_reference, state, refusal`;
    return rows[0] ? toUpgrade(rows[0]) : null;
  }

  async find(tenant: Tenant, id: string): Promise<TicketUpgrade | null> {
    const row = await this.db.ticketChange.findUnique({ where: { id, account_id: tenant.accountId, mode: tenant.mode, kind: 'upgrade' }, select: upgradeColumns });
    return row && toUpgrade(row);
  }

  /**
   * Moves the ticket to its new tier in one statement: the new tier and price, the next code
   * version with its `code`, its unit now sold under the upgrade; the upgrade done, with the old
   * unit to give back (the reservation it was sold under), and `message` enqueued. Answers the
   * ticket and the reservation of the old unit; null when the upgrade was no longer pending.
   */
  async complete(tenant: Tenant, upgrade: TicketUpgrade, code: string, message: OutboxRow<unknown>): Promise<{ ticket: TicketingTicket; oldReservationId: string } | null> {
    const rows = await this.db.$queryRaw<Array<TicketRow & { old_reservation_id: string }>>`
      WITH before AS (
        SELECT id AS ticket_id, reservation_id AS old_reservation_id FROM tickets WHERE id = ${upgrade.ticket_id} AND pending_change_id = ${upgrade.id} FOR UPDATE),
      moved AS (
        UPDATE tickets t SET tier_id = ${upgrade.to_tier_id}, price = t.price + ${upgrade.amount}, code_version = t.code_version + 1, code = ${code},
               reservation_id = ${upgrade.id}, pending_change_id = NULL, updated_at = now()
          FROM before WHERE t.id = before.ticket_id
        RETURNING ${RETURNED_TICKET}),
      done AS (
        UPDATE ticket_changes c SET state = 'done', code_version = moved.code_version, return_reservation_id = before.old_reservation_id,
               return_attempted_at = now(), updated_at = now()
          FROM moved, before WHERE c.id = ${upgrade.id} AND c.state = 'pending'),
      enqueued AS (${enqueue(message)} FROM moved)
      SELECT moved.*, before.old_reservation_id FROM moved, before`;
    const row = rows[0];
    if (!row) return null;
    const { old_reservation_id, ...ticket } = row;
    return { ticket: toTicket(ticket), oldReservationId: old_reservation_id };
  }

  /** Ends a pending upgrade as refused and frees the ticket, keeping why; does nothing when it was no longer pending. */
  async refuse(tenant: Tenant, upgrade: TicketUpgrade, refusal: IssuanceRefusal): Promise<void> {
    await this.db.$executeRaw`
      WITH refused AS (
        UPDATE ticket_changes SET state = 'refused', refusal = ${JSON.stringify(refusal)}::jsonb, updated_at = now()
         WHERE id = ${upgrade.id} AND account_id = ${tenant.accountId} AND mode = ${tenant.mode} AND state = 'pending'
        RETURNING ticket_id)
      UPDATE tickets SET pending_change_id = NULL FROM refused WHERE tickets.id = refused.ticket_id AND tickets.pending_change_id = ${upgrade.id}`;
  }

  /** Pending upgrades, of every tenant, that have not moved since `before`. */
  async stalled(before: Date, limit: number): Promise<Array<{ id: string; tenant: Tenant }>> {
    const rows = await this.db.ticketChange.findMany({
      where: { kind: 'upgrade', state: 'pending', updated_at: { lt: before } },
      orderBy: { updated_at: 'asc' },
      take: limit,
      select: { id: true, account_id: true, mode: true },
    });
    return rows.map(({ id, account_id, mode }) => {
      if (!isMode(mode)) throw new Error(`upgrade ${id} has an unknown mode: ${mode}`);
      return { id, tenant: { accountId: account_id, mode } };
    });
  }

  /** Sends a pending upgrade that could not be driven on to the back of the re-driver's queue. */
  async postpone(id: string, at: Date): Promise<void> {
    await this.db.ticketChange.updateMany({ where: { id, state: 'pending' }, data: { updated_at: at } });
  }
}
