import { servicePorts } from '../tools/system/services';
import { activateLive, as, createAccount } from './support/api';
import { onSale, sale } from './support/on-sale';
import { E2E_PORT_OFFSET } from './support/system';

const opsUrl = `http://127.0.0.1:${servicePorts(E2E_PORT_OFFSET).gateway.OPS_PORT}`;

/** Event reads the gateway served as it kept them, all tenants together. */
async function keptReadsServed(): Promise<number> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text();
  return Number(/^gateway_catalog_read_cache_total\{outcome="hit"\} (\d+)$/m.exec(text)?.[1] ?? 0);
}

/** Decision 0051: the gateway keeps event reads, and never serves one older than a write the client was answered. */
describe('event reads kept by the gateway', () => {
  it('serves a repeated read as kept, and the very next read after any write shows it, whichever service made the write', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSale(api);
    const first = await api.get(`/v1/events/${eventId}`);
    expect(first.status).toBe(200);
    const servedBefore = await keptReadsServed();
    const again = await api.get(`/v1/events/${eventId}`);
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await keptReadsServed()).toBeGreaterThan(servedBefore);

    // A sale: ticketing reserves and commits the units in catalog, not the gateway.
    expect((await api.post(`/v1/events/${eventId}/tickets`, sale(tierId))).status).toBe(200);
    expect((await api.get(`/v1/events/${eventId}`)).body.tiers).toEqual([expect.objectContaining({ id: tierId, sold: 2, held: 0, available: 8 })]);

    expect((await api.patch(`/v1/events/${eventId}`, { name: 'Renamed night' })).status).toBe(200);
    expect((await api.get(`/v1/events/${eventId}`)).body.name).toBe('Renamed night');

    const added = await api.post(`/v1/events/${eventId}/tiers`, { name: 'Balcony', price: 4000, capacity: 5 });
    expect(added.status).toBe(200);
    expect((await api.get(`/v1/events/${eventId}`)).body.tiers.map((tier: { id: string }) => tier.id)).toEqual([tierId, added.body.id]);

    const ticket = (await api.get(`/v1/tickets?event_id=${eventId}&limit=1`)).body.data[0];
    expect((await api.post(`/v1/tickets/${ticket.id}/refund`, {})).status).toBe(200);
    expect((await api.get(`/v1/events/${eventId}`)).body.tiers[0]).toMatchObject({ sold: 1, available: 9 });
  });

  it('shows a discount’s redemption by a sale, and an organization’s update, in the very next read', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSale(api);
    const discount = (await api.post('/v1/discounts', { code: 'KEPT10', percent_off: 10, applies_to: { event_ids: [eventId] } })).body;
    expect((await api.get(`/v1/discounts/${discount.id}`)).body.times_redeemed).toBe(0);
    expect((await api.get(`/v1/discounts/${discount.id}`)).body.times_redeemed).toBe(0);
    // The sale redeems the code: ticketing calls catalog, which announces the write before answering.
    const sold = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId, { discount_code: 'KEPT10', payment: { type: 'external', reference: 'order-kept', amount: 4500 } }));
    expect(sold.status).toBe(200);
    expect((await api.get(`/v1/discounts/${discount.id}`)).body.times_redeemed).toBe(1);

    const organization = (await api.post('/v1/organizations', { name: 'Kept Presents' })).body;
    expect((await api.get(`/v1/organizations/${organization.id}`)).body.name).toBe('Kept Presents');
    expect((await api.get(`/v1/organizations/${organization.id}`)).body.name).toBe('Kept Presents');
    expect((await api.patch(`/v1/organizations/${organization.id}`, { name: 'Renamed Presents' })).status).toBe(200);
    expect((await api.get(`/v1/organizations/${organization.id}`)).body.name).toBe('Renamed Presents');
  });

  it('keeps each account’s and mode’s reads apart: another account or the live mode does not see a test event kept for its owner', async () => {
    const owner = await createAccount();
    const api = as(owner.secret_key);
    const { eventId } = await onSale(api);
    expect((await api.get(`/v1/events/${eventId}`)).status).toBe(200);
    expect((await api.get(`/v1/events/${eventId}`)).status).toBe(200);

    expect((await as((await createAccount()).secret_key).get(`/v1/events/${eventId}`)).status).toBe(404);
    expect((await as((await activateLive(owner.account_id)).secret_key).get(`/v1/events/${eventId}`)).status).toBe(404);
  });
});
