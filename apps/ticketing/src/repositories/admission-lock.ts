import type { TicketingDb } from '../db';

/** Namespace of the advisory locks that order the writes spending one waiting-room admission (the entry id's hash is the other half). */
const ADMISSION_LOCK_SPACE = 0x61646d; // 'adm'

/**
 * Takes, until the transaction ends, the lock every write that spends the admission of
 * `entryId` takes first (decision 0034): a seat hold made with it checks that no issuance used it,
 * and a sale with it that it holds no seats, each before writing its own row. Without an order,
 * a hold and a sale racing with one admission both passed, each unseen by the other's check.
 */
export async function lockAdmission(db: TicketingDb, entryId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(${ADMISSION_LOCK_SPACE}::int, hashtext(${entryId}))`;
}
