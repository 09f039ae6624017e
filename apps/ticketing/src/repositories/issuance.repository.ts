import { isMode, type Tenant } from '@ticketing/auth';
import { isUniqueViolation, tenantScope, type StatementSeal } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import { idsBefore, type PageSource } from '@ticketing/pagination';
import type { TicketingDb } from '../db';
import type { CustomerChoice } from '../domain/customer';
import { admissionRefused } from '../domain/waiting-room';
import type { IssuanceKind, IssuanceRefusal, IssuanceStatus, TicketingIssuance } from '../domain/issuance';
import { Prisma } from '../generated/prisma/client';
import { buyerCte, customerById, CustomerRepository } from './customer.repository';

const issuanceColumns = {
  id: true,
  mode: true,
  event_id: true,
  tier_id: true,
  customer_id: true,
  kind: true,
  quantity: true,
  payment_type: true,
  payment_reference: true,
  amount: true,
  currency: true,
  comp_reason: true,
  seat_hold_id: true,
  admission_entry_id: true,
  discount_id: true,
  metadata: true,
  status: true,
  refusal: true,
  created_at: true,
} as const;

type IssuanceRow = Prisma.IssuanceGetPayload<{ select: typeof issuanceColumns }>;

function toIssuance({ payment_type, payment_reference, amount, kind, status, metadata, refusal, ...rest }: IssuanceRow): TicketingIssuance {
  return {
    ...rest,
    kind: kind as IssuanceKind,
    status: status as IssuanceStatus,
    amount: Number(amount),
    payment: payment_type === 'external' || payment_type === 'payment_intent' ? { type: payment_type, reference: payment_reference ?? '', amount: Number(amount) } : null,
    metadata: metadata as Record<string, string>,
    refusal: refusal as IssuanceRefusal | null,
  };
}

/** An issuance to record; its customer is the buyer recorded with it. */
export type NewIssuance = Omit<TicketingIssuance, 'mode' | 'status' | 'refusal' | 'created_at' | 'customer_id'>;

/** An issuance to record as pending with its buyer, and its Idempotency-Key's seal if it has one (createPendingTogether). */
export interface PendingRecording {
  issuance: NewIssuance;
  buyer: CustomerChoice;
  newCustomerId?: string;
  keySeal: StatementSeal | null;
}

/** Issuances of one tenant, except the re-driver's scan, which looks across tenants. */
export class IssuanceRepository {
  constructor(private readonly db: TicketingDb) {}

  /**
   * Records the issuance as pending in one statement, with its buyer: the tenant's customer with
   * that id (resource_missing if there is none), or the one these details name, created if the
   * email is new. Refused with admission_token_used when another issuance used the same
   * waiting-room admission. Under an Idempotency-Key, `keySeal` makes the same statement the
   * key's write (libs/db `StatementSeal`).
   */
  async createPending(tenant: Tenant, issuance: NewIssuance, buyer: CustomerChoice, newCustomerId: string | undefined, keySeal: StatementSeal | null): Promise<TicketingIssuance> {
    try {
      let created = await this.insertPending(tenant, issuance, buyer, newCustomerId, keySeal);
      if (!created) {
        // No buyer: an id the tenant does not have (resolve refuses it), or an email whose customer a
        // racing purchase created after this statement began (resolve finds it). Or the key's claim lost.
        const customer = await new CustomerRepository(this.db).resolve(tenant, buyer);
        created = await this.insertPending(tenant, issuance, { customer_id: customer.id }, undefined, keySeal);
      }
      keySeal?.confirm(created !== null);
      return created!;
    } catch (error) {
      throw issuance.admission_entry_id && isUniqueViolation(error) ? admissionRefused('used', issuance.event_id) : error;
    }
  }

  /**
   * Records several unseated issuances of the tenant as pending in one statement, each with its
   * buyer as `createPending` finds or creates it (one new customer per new email), and each under
   * an Idempotency-Key sealing its key as `createPending` does (decision 0055): its row is written
   * only while its key's claim is still its call's, locked for the statement. An item gets null
   * when that needs more than one statement: its buyer is not found now (an unknown id, or an
   * email whose customer a racing statement is creating), its row conflicts (an admission already
   * used), or its claim was lost; `createPending` then records it, or refuses it, alone.
   */
  async createPendingTogether(tenant: Tenant, items: readonly PendingRecording[]): Promise<Array<TicketingIssuance | null>> {
    const column = <T>(pick: (item: (typeof items)[number]) => T) => items.map(pick);
    const details = (item: (typeof items)[number]) => ('details' in item.buyer ? item.buyer.details : null);
    const rows = await this.db.$queryRaw<IssuanceRow[]>`
      WITH batch AS (
        SELECT * FROM unnest(
          ${column((item) => item.issuance.id)}::text[], ${column((item) => item.issuance.event_id)}::text[], ${column((item) => item.issuance.tier_id)}::text[],
          ${column((item) => item.issuance.kind)}::text[], ${column((item) => item.issuance.quantity)}::int[], ${column((item) => item.issuance.payment?.type ?? null)}::text[],
          ${column((item) => item.issuance.payment?.reference ?? null)}::text[], ${column((item) => item.issuance.amount)}::bigint[], ${column((item) => item.issuance.currency)}::text[],
          ${column((item) => item.issuance.comp_reason)}::text[], ${column((item) => item.issuance.admission_entry_id)}::text[], ${column((item) => item.issuance.discount_id)}::text[],
          ${column((item) => JSON.stringify(item.issuance.metadata))}::jsonb[], ${column((item) => ('customer_id' in item.buyer ? item.buyer.customer_id : null))}::text[],
          ${column((item) => details(item)?.email ?? null)}::text[], ${column((item) => details(item)?.name ?? null)}::text[], ${column((item) => item.newCustomerId ?? newId('cus'))}::text[],
          ${column((item) => item.keySeal?.key.operation ?? null)}::text[], ${column((item) => item.keySeal?.key.keyHash ?? null)}::text[],
          ${column((item) => item.keySeal?.key.fingerprint ?? null)}::text[], ${column((item) => item.keySeal?.key.sealed ?? null)}::bytea[])
          WITH ORDINALITY AS b (id, event_id, tier_id, kind, quantity, payment_type, payment_reference, amount, currency, comp_reason, admission_entry_id, discount_id, metadata,
                                customer_id, email, name, new_customer_id, key_operation, key_hash, key_fingerprint, key_sealed, ordinal)),
      key_claims AS (
        -- The keyed items' claims, still their calls' and unsealed, locked for this statement in key order (EarlyKeyClaims.statementSeal, KeyClaimBatches).
        SELECT b.id AS issuance_id FROM batch b JOIN idempotency_keys k
            ON k.account_id = ${tenant.accountId} AND k.mode = ${tenant.mode} AND k.operation = b.key_operation AND k.key_hash = b.key_hash
           AND k.fingerprint = b.key_fingerprint AND k.result IS NULL
         ORDER BY k.operation, k.key_hash
           FOR UPDATE OF k),
      new_customers AS (
        INSERT INTO customers (id, account_id, mode, email, name)
        SELECT DISTINCT ON (email) new_customer_id, ${tenant.accountId}, ${tenant.mode}, email, name FROM batch WHERE customer_id IS NULL ORDER BY email, ordinal
        ON CONFLICT (account_id, mode, email) DO NOTHING
        RETURNING id, email),
      buyers AS (
        -- Each item's buyer in one index probe: by id (customerById), or by email.
        SELECT b.id AS issuance_id, COALESCE(n.id, known.id) AS customer_id
          FROM batch b
          LEFT JOIN new_customers n ON b.customer_id IS NULL AND n.email = b.email
          LEFT JOIN LATERAL (
            SELECT by_id.id FROM (${customerById(Prisma.sql`b.customer_id`)}) by_id WHERE by_id.account_id = ${tenant.accountId} AND by_id.mode = ${tenant.mode}
            UNION ALL
            SELECT c.id FROM customers c WHERE b.customer_id IS NULL AND c.account_id = ${tenant.accountId} AND c.mode = ${tenant.mode} AND c.email = b.email) known ON true),
      inserted AS (
        INSERT INTO issuances (id, account_id, mode, event_id, tier_id, customer_id, kind, quantity, payment_type, payment_reference, amount, currency,
                               comp_reason, seat_hold_id, admission_entry_id, discount_id, metadata, status)
        SELECT b.id, ${tenant.accountId}, ${tenant.mode}, b.event_id, b.tier_id, buyers.customer_id, b.kind, b.quantity, b.payment_type, b.payment_reference, b.amount, b.currency,
               b.comp_reason, NULL, b.admission_entry_id, b.discount_id, b.metadata, 'pending'
          FROM batch b JOIN buyers ON buyers.issuance_id = b.id
         WHERE buyers.customer_id IS NOT NULL AND (b.key_hash IS NULL OR b.id IN (SELECT issuance_id FROM key_claims))
        ON CONFLICT DO NOTHING
        RETURNING id, mode, event_id, tier_id, customer_id, kind, quantity, payment_type, payment_reference, amount, currency, comp_reason, seat_hold_id,
                  admission_entry_id, discount_id, metadata, status, refusal, created_at),
      keys_sealed AS (
        UPDATE idempotency_keys k SET result = b.key_sealed
          FROM batch b JOIN inserted ON inserted.id = b.id
         WHERE b.key_hash IS NOT NULL AND k.account_id = ${tenant.accountId} AND k.mode = ${tenant.mode} AND k.operation = b.key_operation
           AND k.key_hash = b.key_hash AND k.fingerprint = b.key_fingerprint AND k.result IS NULL)
      SELECT * FROM inserted`;
    const recorded = new Map(rows.map((row) => [row.id, toIssuance(row)]));
    return items.map((item) => {
      const issuance = recorded.get(item.issuance.id) ?? null;
      if (issuance) item.keySeal?.confirm(true);
      return issuance;
    });
  }

  /** The pending issuance, or null when its buyer was not found (see `buyerCte`) or the key's claim was lost. */
  private async insertPending(tenant: Tenant, issuance: NewIssuance, buyer: CustomerChoice, newCustomerId: string | undefined, keySeal: StatementSeal | null): Promise<TicketingIssuance | null> {
    const underKey = keySeal
      ? { claim: Prisma.sql`key_claim AS (${keySeal.claim}),`, from: Prisma.sql`, key_claim`, seal: Prisma.sql`, key_sealed AS (${keySeal.seal} AND EXISTS (SELECT 1 FROM inserted))` }
      : { claim: Prisma.empty, from: Prisma.empty, seal: Prisma.empty };
    const rows = await this.db.$queryRaw<IssuanceRow[]>`
      WITH ${underKey.claim} ${buyerCte(tenant, buyer, newCustomerId)},
      inserted AS (
        INSERT INTO issuances (id, account_id, mode, event_id, tier_id, customer_id, kind, quantity, payment_type, payment_reference, amount, currency,
                               comp_reason, seat_hold_id, admission_entry_id, discount_id, metadata, status)
        SELECT ${issuance.id}, ${tenant.accountId}, ${tenant.mode}, ${issuance.event_id}, ${issuance.tier_id}, buyer.id, ${issuance.kind}, ${issuance.quantity}::int,
               ${issuance.payment?.type ?? null}::text, ${issuance.payment?.reference ?? null}::text, ${issuance.amount}::bigint, ${issuance.currency},
               ${issuance.comp_reason}::text, ${issuance.seat_hold_id}::text, ${issuance.admission_entry_id}::text, ${issuance.discount_id}::text, ${JSON.stringify(issuance.metadata)}::jsonb, 'pending'
          FROM buyer ${underKey.from} LIMIT 1
        RETURNING id, mode, event_id, tier_id, customer_id, kind, quantity, payment_type, payment_reference, amount, currency, comp_reason, seat_hold_id,
                  admission_entry_id, discount_id, metadata, status, refusal, created_at)
      ${underKey.seal}
      SELECT * FROM inserted`;
    return rows[0] ? toIssuance(rows[0]) : null;
  }

  /** Whether an issuance, pending or issued, used this waiting-room admission (a refused one gives it back). */
  async admissionUsed(admissionEntryId: string): Promise<boolean> {
    return (await this.db.issuance.count({ where: { admission_entry_id: admissionEntryId } })) > 0;
  }

  async find(tenant: Tenant, id: string): Promise<TicketingIssuance | null> {
    const row = await this.db.issuance.findUnique({ where: { id, ...tenantScope(tenant) }, select: issuanceColumns });
    return row && toIssuance(row);
  }

  /**
   * Refuses a pending issuance, keeping why (TicketRepository.issue is the other way out of
   * pending), and gives back the waiting-room admission it used: nothing was sold, so the buyer's
   * token lets their next issuance through. False, having done nothing, when it was no longer
   * pending: another driver settled it first.
   */
  async refuse(tenant: Tenant, id: string, refusal: IssuanceRefusal): Promise<boolean> {
    const refused = await this.db.issuance.updateMany({
      where: { id, status: 'pending', ...tenantScope(tenant) },
      data: { status: 'refused', refusal: { ...refusal }, admission_entry_id: null },
    });
    return refused.count === 1;
  }

  /** The event's issued comps, newest first: its guest list. */
  compPages(tenant: Tenant, eventId: string): PageSource<TicketingIssuance> {
    const scope = { event_id: eventId, kind: 'comp', status: 'issued', ...tenantScope(tenant) };
    return {
      exists: async (id) => (await this.db.issuance.count({ where: { id, ...tenantScope(tenant) } })) > 0,
      fetch: async (take, beforeId) =>
        (await this.db.issuance.findMany({ where: { ...scope, ...idsBefore(beforeId) }, orderBy: { id: 'desc' }, take, select: issuanceColumns })).map(toIssuance),
    };
  }

  /** Sends a pending issuance that could not be driven on to the back of the re-driver's queue. */
  async postpone(id: string, at: Date): Promise<void> {
    await this.db.issuance.updateMany({ where: { id, status: 'pending' }, data: { updated_at: at } });
  }

  /** Pending issuances, of every tenant, that have not changed since `before`: left behind by a crash or a lost call. */
  async stalled(before: Date, limit: number): Promise<Array<{ id: string; tenant: Tenant }>> {
    const rows = await this.db.issuance.findMany({
      where: { status: 'pending', updated_at: { lt: before } },
      orderBy: { updated_at: 'asc' },
      take: limit,
      select: { id: true, account_id: true, mode: true },
    });
    return rows.map(({ id, account_id, mode }) => {
      if (!isMode(mode)) throw new Error(`issuance ${id} has an unknown mode: ${mode}`);
      return { id, tenant: { accountId: account_id, mode } };
    });
  }
}
