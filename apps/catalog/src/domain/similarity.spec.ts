import { DATE_HORIZON_DAYS, rankBySimilarity, similarity, SIMILARITY_WEIGHTS, type SimilarityFacts } from './similarity';

const DAY_MS = 86_400_000;
const SOURCE_START = new Date('2027-06-01T20:00:00Z');
const daysAfterSource = (days: number) => new Date(SOURCE_START.getTime() + days * DAY_MS);

/** An event that shares nothing with `candidate()` unless a test says so. */
const source = (overrides: Partial<SimilarityFacts> = {}): SimilarityFacts => ({
  id: 'evt_source',
  organization_id: 'org_source',
  venue: null,
  category: null,
  tags: [],
  starts_at: SOURCE_START,
  currency: 'EUR',
  prices: [],
  ...overrides,
});

const candidate = (overrides: Partial<SimilarityFacts> = {}): SimilarityFacts => ({
  id: 'evt_candidate',
  organization_id: 'org_other',
  venue: null,
  category: null,
  tags: [],
  starts_at: daysAfterSource(DATE_HORIZON_DAYS),
  currency: 'EUR',
  prices: [],
  ...overrides,
});

const paradiso = { name: 'Paradiso', city: 'Amsterdam', country: 'NL' };

describe('similarity', () => {
  it('documents the weights', () => {
    expect(SIMILARITY_WEIGHTS).toEqual({
      same_organization: 3,
      same_category: 3,
      shared_tags: 3,
      same_venue: 2,
      same_city: 1.5,
      close_in_date: 2,
      similar_price: 1.5,
    });
    expect(DATE_HORIZON_DAYS).toBe(60);
  });

  it('scores 0 with no reasons when nothing is shared', () => {
    expect(similarity(source(), candidate())).toEqual({ score: 0, reasons: [] });
  });

  it('counts the same organization', () => {
    expect(similarity(source(), candidate({ organization_id: 'org_source' }))).toEqual({ score: 3, reasons: ['same_organization'] });
    expect(similarity(source({ organization_id: null }), candidate({ organization_id: null }))).toEqual({ score: 0, reasons: [] });
  });

  it('counts the same category, ignoring case', () => {
    expect(similarity(source({ category: 'Music' }), candidate({ category: 'music' }))).toEqual({ score: 3, reasons: ['same_category'] });
    expect(similarity(source({ category: 'music' }), candidate({ category: 'theatre' })).reasons).toEqual([]);
    expect(similarity(source({ category: null }), candidate({ category: null })).reasons).toEqual([]);
    expect(similarity(source({ category: '' }), candidate({ category: '' })).reasons).toEqual([]);
  });

  it.each([
    [['rock', 'indie'], ['rock', 'indie'], 3],
    [['rock', 'indie'], ['indie', 'rock'], 3],
    [['rock', 'indie'], ['rock', 'jazz'], 1],
    [['rock'], ['rock', 'jazz', 'blues', 'folk'], 0.75],
    [['a', 'b', 'c'], ['c', 'd', 'e', 'f', 'g', 'h'], 0.375],
    [['rock'], ['rock', 'rock'], 3],
  ])('scales shared tags %j and %j by their Jaccard index to %p', (a, b, score) => {
    expect(similarity(source({ tags: a }), candidate({ tags: b }))).toEqual({ score, reasons: ['shared_tags'] });
  });

  it('does not count tags when none are shared or one side has none', () => {
    expect(similarity(source({ tags: ['rock'] }), candidate({ tags: ['jazz'] })).reasons).toEqual([]);
    expect(similarity(source({ tags: [] }), candidate({ tags: ['jazz'] })).reasons).toEqual([]);
    expect(similarity(source({ tags: ['jazz'] }), candidate({ tags: [] })).reasons).toEqual([]);
  });

  it('counts the same venue only when the city and country also match', () => {
    expect(similarity(source({ venue: paradiso }), candidate({ venue: { name: 'PARADISO', city: 'amsterdam', country: 'NL' } }))).toEqual({
      score: 2,
      reasons: ['same_venue'],
    });
    // Same name elsewhere is a different venue, and not the same city either.
    expect(similarity(source({ venue: paradiso }), candidate({ venue: { ...paradiso, city: 'Rotterdam' } })).reasons).toEqual([]);
    expect(similarity(source({ venue: paradiso }), candidate({ venue: { ...paradiso, country: 'BE' } })).reasons).toEqual([]);
    expect(similarity(source({ venue: { ...paradiso, city: null } }), candidate({ venue: { ...paradiso, city: null } })).reasons).toEqual([]);
  });

  it('counts the same city only when the venue differs', () => {
    expect(similarity(source({ venue: paradiso }), candidate({ venue: { name: 'Melkweg', city: 'Amsterdam', country: 'NL' } }))).toEqual({
      score: 1.5,
      reasons: ['same_city'],
    });
    expect(similarity(source({ venue: paradiso }), candidate({ venue: { name: 'Melkweg', city: 'Amsterdam', country: null } })).reasons).toEqual([]);
    expect(
      similarity(source({ venue: { ...paradiso, country: null } }), candidate({ venue: { name: 'Melkweg', city: 'Amsterdam', country: null } })).reasons,
    ).toEqual(['same_city']);
    expect(similarity(source({ venue: paradiso }), candidate({ venue: null })).reasons).toEqual([]);
  });

  it.each([
    [0, 2],
    [15, 1.5],
    [-15, 1.5],
    [30, 1],
    [45, 0.5],
    [59, 0.033],
  ])('scores events %p days apart at %p for close_in_date', (days, score) => {
    expect(similarity(source(), candidate({ starts_at: daysAfterSource(days) }))).toEqual({ score, reasons: ['close_in_date'] });
  });

  it(`stops counting the date at ${DATE_HORIZON_DAYS} days apart`, () => {
    expect(similarity(source(), candidate({ starts_at: daysAfterSource(DATE_HORIZON_DAYS) })).reasons).toEqual([]);
    expect(similarity(source(), candidate({ starts_at: daysAfterSource(-DATE_HORIZON_DAYS) })).reasons).toEqual([]);
    expect(similarity(source(), candidate({ starts_at: daysAfterSource(365) })).reasons).toEqual([]);
  });

  it('counts similar prices for the same currency and overlapping ranges', () => {
    const similar = { score: 1.5, reasons: ['similar_price'] };
    expect(similarity(source({ prices: [1000, 5000] }), candidate({ prices: [4000, 9000] }))).toEqual(similar);
    expect(similarity(source({ prices: [5000, 1000] }), candidate({ prices: [5000] }))).toEqual(similar);
    expect(similarity(source({ prices: [2000] }), candidate({ prices: [1000, 3000] }))).toEqual(similar);
  });

  it('does not count prices in other currencies, disjoint ranges or missing prices', () => {
    expect(similarity(source({ prices: [1000] }), candidate({ prices: [1000], currency: 'USD' })).reasons).toEqual([]);
    expect(similarity(source({ prices: [1000, 2000] }), candidate({ prices: [2001, 3000] })).reasons).toEqual([]);
    expect(similarity(source({ prices: [] }), candidate({ prices: [1000] })).reasons).toEqual([]);
    expect(similarity(source({ prices: [1000] }), candidate({ prices: [] })).reasons).toEqual([]);
  });

  it('adds the weighted reasons up in a fixed order and rounds to three decimals', () => {
    const result = similarity(
      source({ category: 'music', tags: ['rock', 'indie', 'live'], venue: paradiso, prices: [2500] }),
      candidate({
        organization_id: 'org_source',
        category: 'Music',
        tags: ['rock'],
        venue: paradiso,
        starts_at: daysAfterSource(1),
        prices: [2500],
      }),
    );
    expect(result.reasons).toEqual(['same_organization', 'same_category', 'shared_tags', 'same_venue', 'close_in_date', 'similar_price']);
    // 3 + 3 + 3/3 + 2 + 2 * 59/60 + 1.5 = 12.4666… → 12.467
    expect(result.score).toBe(12.467);
  });
});

describe('rankBySimilarity', () => {
  it('leaves out the source itself and candidates that share nothing', () => {
    const ranked = rankBySimilarity(source(), [
      candidate({ id: 'evt_source', organization_id: 'org_source' }),
      candidate({ id: 'evt_nothing' }),
      candidate({ id: 'evt_same_org', organization_id: 'org_source' }),
    ]);
    expect(ranked.map((entry) => entry.candidate.id)).toEqual(['evt_same_org']);
    expect(ranked[0]).toEqual({ candidate: expect.objectContaining({ id: 'evt_same_org' }), score: 3, reasons: ['same_organization'] });
  });

  it('orders by score, then the sooner event, then the id', () => {
    const later = daysAfterSource(100);
    const sooner = daysAfterSource(80);
    const ranked = rankBySimilarity(source({ category: 'music' }), [
      candidate({ id: 'evt_c', category: 'music', starts_at: later }),
      candidate({ id: 'evt_b', category: 'music', starts_at: later }),
      candidate({ id: 'evt_low', starts_at: daysAfterSource(30) }),
      candidate({ id: 'evt_top', category: 'music', organization_id: 'org_source', starts_at: later }),
      candidate({ id: 'evt_z', category: 'music', starts_at: sooner }),
      candidate({ id: 'evt_a', category: 'music', starts_at: later }),
    ]);
    expect(ranked.map((entry) => [entry.candidate.id, entry.score])).toEqual([
      ['evt_top', 6],
      ['evt_z', 3],
      ['evt_a', 3],
      ['evt_b', 3],
      ['evt_c', 3],
      ['evt_low', 1],
    ]);
  });

  it('returns the candidates themselves and leaves the input untouched', () => {
    const input = [candidate({ id: 'evt_2', organization_id: 'org_source' }), candidate({ id: 'evt_1', organization_id: 'org_source' })];
    const ranked = rankBySimilarity(source(), input);
    expect(ranked[0]?.candidate).toBe(input[1]);
    expect(input.map((entry) => entry.id)).toEqual(['evt_2', 'evt_1']);
  });

  it('returns nothing for no candidates', () => {
    expect(rankBySimilarity(source(), [])).toEqual([]);
  });
});
