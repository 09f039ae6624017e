/**
 * How alike two events are, for "similar events": a weighted sum of what they share. The
 * weights are documented in docs/decisions/0015-similar-events.md; change both together.
 */
export interface SimilarityFacts {
  id: string;
  organization_id: string | null;
  venue: { name: string; city: string | null; country: string | null } | null;
  category: string | null;
  tags: readonly string[];
  starts_at: Date;
  currency: string;
  /** Prices of the event's tiers, in minor units of `currency`. */
  prices: readonly number[];
}

export const SIMILARITY_WEIGHTS = {
  same_organization: 3,
  same_category: 3,
  /** Scaled by the Jaccard index of the two tag sets. */
  shared_tags: 3,
  same_venue: 2,
  /** Only when the venue differs. */
  same_city: 1.5,
  /** Scaled from 1 on the same day down to 0 at DATE_HORIZON_DAYS apart. */
  close_in_date: 2,
  /** Same currency and overlapping price ranges. */
  similar_price: 1.5,
} as const;

export type SimilarityReason = keyof typeof SIMILARITY_WEIGHTS;

export const DATE_HORIZON_DAYS = 60;
const DAY_MS = 86_400_000;

export interface Similarity {
  score: number;
  reasons: SimilarityReason[];
}

const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

function jaccard(a: readonly string[], b: readonly string[]): number {
  const left = new Set(a);
  const right = new Set(b);
  if (left.size === 0 || right.size === 0) return 0;
  const shared = [...right].filter((tag) => left.has(tag)).length;
  return shared / (left.size + right.size - shared);
}

function priceRangesOverlap(a: SimilarityFacts, b: SimilarityFacts): boolean {
  if (a.currency !== b.currency || a.prices.length === 0 || b.prices.length === 0) return false;
  return Math.min(...a.prices) <= Math.max(...b.prices) && Math.min(...b.prices) <= Math.max(...a.prices);
}

export function similarity(source: SimilarityFacts, candidate: SimilarityFacts): Similarity {
  const parts: Array<[SimilarityReason, number]> = [];
  if (same(source.organization_id, candidate.organization_id)) parts.push(['same_organization', 1]);
  if (same(source.category, candidate.category)) parts.push(['same_category', 1]);
  const tagOverlap = jaccard(source.tags, candidate.tags);
  if (tagOverlap > 0) parts.push(['shared_tags', tagOverlap]);
  const sameCity = same(source.venue?.city, candidate.venue?.city) && (source.venue?.country ?? null) === (candidate.venue?.country ?? null);
  if (same(source.venue?.name, candidate.venue?.name) && sameCity) parts.push(['same_venue', 1]);
  else if (sameCity) parts.push(['same_city', 1]);
  const daysApart = Math.abs(source.starts_at.getTime() - candidate.starts_at.getTime()) / DAY_MS;
  if (daysApart < DATE_HORIZON_DAYS) parts.push(['close_in_date', 1 - daysApart / DATE_HORIZON_DAYS]);
  if (priceRangesOverlap(source, candidate)) parts.push(['similar_price', 1]);
  const score = parts.reduce((sum, [reason, factor]) => sum + SIMILARITY_WEIGHTS[reason] * factor, 0);
  return { score: Math.round(score * 1000) / 1000, reasons: parts.map(([reason]) => reason) };
}

/** Candidates that share anything with the source, best first; ties go to the sooner event, then the id. */
export function rankBySimilarity<T extends SimilarityFacts>(source: SimilarityFacts, candidates: readonly T[]): Array<{ candidate: T } & Similarity> {
  return candidates
    .filter((candidate) => candidate.id !== source.id)
    .map((candidate) => ({ candidate, ...similarity(source, candidate) }))
    .filter((ranked) => ranked.score > 0)
    .sort((a, b) => b.score - a.score || a.candidate.starts_at.getTime() - b.candidate.starts_at.getTime() || (a.candidate.id < b.candidate.id ? -1 : 1));
}
