import { newId } from '@ticketing/ids';
import { unmetCondition, validTriggerCondition, type TriggerFacts } from './discount-trigger';

const refusal = (code: string, param: string) => expect.objectContaining({ code, param });
const segment = newId('seg');

describe('trigger conditions', () => {
  it('accepts each kind with its own fields', () => {
    expect(validTriggerCondition({ kind: 'min_quantity', quantity: 4 })).toEqual({ kind: 'min_quantity', quantity: 4 });
    expect(validTriggerCondition({ kind: 'purchase_window', starts_at: '', ends_at: '2027-03-01T00:00:00Z' })).toEqual({
      kind: 'purchase_window',
      starts_at: null,
      ends_at: new Date('2027-03-01T00:00:00Z'),
    });
    expect(validTriggerCondition({ kind: 'customer_segment', segment_id: segment })).toEqual({ kind: 'customer_segment', segment_id: segment });
    expect(validTriggerCondition({ kind: 'tier_bundle', tier_ids: ['tier_a', 'tier_b'] })).toEqual({ kind: 'tier_bundle', tier_ids: ['tier_a', 'tier_b'] });
  });

  it('needs a kind', () => {
    expect(() => validTriggerCondition(undefined)).toThrow(refusal('parameter_missing', 'kind'));
  });

  it.each([0, -2, 1.5])('refuses a minimum quantity of %p', (quantity) => {
    expect(() => validTriggerCondition({ kind: 'min_quantity', quantity })).toThrow(refusal('parameter_invalid', 'quantity'));
  });

  it('needs a window with a bound, ending after it starts', () => {
    expect(() => validTriggerCondition({ kind: 'purchase_window', starts_at: '', ends_at: '' })).toThrow(refusal('parameter_missing', 'ends_at'));
    expect(() => validTriggerCondition({ kind: 'purchase_window', starts_at: '2027-03-01T00:00:00Z', ends_at: '2027-02-01T00:00:00Z' })).toThrow(
      refusal('parameter_invalid', 'ends_at'),
    );
    expect(() => validTriggerCondition({ kind: 'purchase_window', starts_at: 'soon', ends_at: '' })).toThrow(refusal('parameter_invalid', 'starts_at'));
  });

  it('needs a segment id and a bundle of 2 to 20 distinct tiers', () => {
    expect(() => validTriggerCondition({ kind: 'customer_segment', segment_id: 'cus_1' })).toThrow(refusal('parameter_invalid', 'segment_id'));
    expect(() => validTriggerCondition({ kind: 'tier_bundle', tier_ids: ['tier_a'] })).toThrow(refusal('parameter_invalid', 'tier_ids'));
    expect(() => validTriggerCondition({ kind: 'tier_bundle', tier_ids: ['tier_a', 'tier_a'] })).toThrow(refusal('parameter_invalid', 'tier_ids[1]'));
  });
});

describe('matching a trigger against an order', () => {
  const at = new Date('2027-02-15T12:00:00Z');
  const facts: TriggerFacts = { qualifyingQuantity: 3, tierIds: new Set(['tier_a', 'tier_b']), segmentIds: new Set([segment]), at };

  it('counts eligible tickets towards a minimum quantity', () => {
    expect(unmetCondition({ kind: 'min_quantity', quantity: 3 }, facts)).toBeNull();
    expect(unmetCondition({ kind: 'min_quantity', quantity: 4 }, facts)).toMatch(/at least 4/);
  });

  it('holds a purchase window as [starts_at, ends_at)', () => {
    const window = (startsAt: string | null, endsAt: string | null) => ({
      kind: 'purchase_window' as const,
      starts_at: startsAt === null ? null : new Date(startsAt),
      ends_at: endsAt === null ? null : new Date(endsAt),
    });
    expect(unmetCondition(window(null, '2027-03-01T00:00:00Z'), facts)).toBeNull();
    expect(unmetCondition(window('2027-02-15T12:00:00Z', null), facts)).toBeNull();
    expect(unmetCondition(window(null, '2027-02-15T12:00:00Z'), facts)).toMatch(/before/);
    expect(unmetCondition(window('2027-02-16T00:00:00Z', null), facts)).toMatch(/from/);
  });

  it('needs the customer in the segment', () => {
    expect(unmetCondition({ kind: 'customer_segment', segment_id: segment }, facts)).toBeNull();
    expect(unmetCondition({ kind: 'customer_segment', segment_id: newId('seg') }, facts)).toMatch(/segment/);
  });

  it('needs every tier of a bundle in the order', () => {
    expect(unmetCondition({ kind: 'tier_bundle', tier_ids: ['tier_a', 'tier_b'] }, facts)).toBeNull();
    expect(unmetCondition({ kind: 'tier_bundle', tier_ids: ['tier_a', 'tier_c'] }, facts)).toMatch(/every one/);
  });
});
