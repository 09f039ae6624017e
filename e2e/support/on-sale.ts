import type { Client } from './lists';

/** The price of every tier these helpers create, in minor units of EUR. */
export const PRICE = 2500;

/** A published event in EUR with one tier at PRICE: capacity 10 unless `tier` says otherwise. */
export async function onSale(api: Client, tier: Record<string, unknown> = {}): Promise<{ eventId: string; tierId: string }> {
  const event = await api.post('/v1/events', { name: 'On-sale night', starts_at: '2099-09-01T20:00:00Z', currency: 'EUR' });
  expect(event.status).toBe(200);
  const created = await api.post(`/v1/events/${event.body.id}/tiers`, { name: 'GA', price: PRICE, capacity: 10, ...tier });
  expect(created.status).toBe(200);
  expect((await api.patch(`/v1/events/${event.body.id}`, { status: 'published' })).status).toBe(200);
  return { eventId: event.body.id, tierId: created.body.id };
}

/** An issuance body: two tickets for Ann, paid in full outside the API, unless `fields` says otherwise. */
export const sale = (tierId: string, fields: Record<string, unknown> = {}) => ({
  tier_id: tierId,
  quantity: 2,
  customer: { email: 'ann@example.com', name: 'Ann Lee' },
  payment: { type: 'external', reference: 'order-1', amount: 2 * PRICE },
  ...fields,
});
