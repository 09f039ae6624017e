import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import { paginateOrdered, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import type { CatalogEvent } from '../../domain/event';
import { rankBySimilarity, type Similarity, type SimilarityFacts } from '../../domain/similarity';
import { EventRepository } from '../../repositories/event.repository';

/** How many upcoming events are ranked: the soonest ones, which are also the likeliest matches. */
export const MAX_SIMILARITY_CANDIDATES = 1000;

function similarityFacts(event: CatalogEvent): SimilarityFacts & { event: CatalogEvent } {
  return { ...event, prices: event.tiers.map((tier) => tier.price), event };
}

/** The tenant's other upcoming published events, best match first (domain/similarity.ts). */
export class ListSimilarEventsUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async execute(tenant: Tenant, id: string, page: PageRequest | undefined): Promise<Page<{ event: CatalogEvent } & Similarity>> {
    const events = new EventRepository(this.prisma);
    const source = await events.findById(tenant, id);
    if (!source) throw ApiError.resourceMissing('event', id);
    const candidates = await events.upcomingPublished(tenant, this.now(), MAX_SIMILARITY_CANDIDATES);
    const ranked = rankBySimilarity(similarityFacts(source), candidates.map(similarityFacts)).map(({ candidate, score, reasons }) => ({ event: candidate.event, score, reasons }));
    return paginateOrdered(page, ranked, (item) => item.event.id);
  }
}
