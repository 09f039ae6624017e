import { randomBytes } from 'node:crypto';

/**
 * A tenant's catalog read generation in Redis: a random token catalog replaces after every write
 * it makes for the tenant (account and mode), before it answers the write. Readers that keep
 * catalog's answers (the gateway's read cache) keep each with the token they read before asking
 * catalog, and serve it only while the token is unchanged, so nothing older than the last
 * acknowledged write is ever served (decision 0051).
 */
export function catalogReadsGenerationEntry(accountId: string, mode: string): string {
  return `catalog-reads:${accountId}:${mode}`;
}

/**
 * How long a generation lives after it was last replaced. An expired one reads as absent, which
 * matches no kept answer, so expiry only costs readers a fresh read.
 */
export const CATALOG_READS_GENERATION_TTL_SECONDS = 86_400;

/** A new generation token: never one a reader kept an answer under. */
export function newCatalogReadsGeneration(): string {
  return randomBytes(12).toString('base64url');
}
