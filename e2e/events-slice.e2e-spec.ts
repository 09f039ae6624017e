import { waitFor } from '@ticketing/testing';
import { as, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';
import { subscribeToEveryEvent } from './support/webhook-trail';

/** Gateway → gRPC → catalog → Postgres, then outbox → Kafka → webhooks' record. */
describe('events: one vertical slice through every layer', () => {
  let api: ReturnType<typeof as>;

  beforeAll(async () => {
    api = as((await createAccount()).secret_key);
    await subscribeToEveryEvent(api);
  });

  const notificationsFor = (eventId: string) =>
    queryServiceDatabase<{ type: string; mode: string }>('webhooks', `SELECT type, mode FROM notifications WHERE data->>'event_id' = $1 ORDER BY id`, [eventId]);

  it('creates, reads, lists and updates an event, and webhooks records each change once', async () => {
    const created = await api.post('/v1/events', { name: 'Harbour Lights', starts_at: '2027-07-01T20:00:00Z' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      object: 'event',
      livemode: false,
      name: 'Harbour Lights',
      starts_at: '2027-07-01T20:00:00.000Z',
    });
    const id: string = created.body.id;
    expect(id).toMatch(/^evt_/);

    expect((await api.get(`/v1/events/${id}`)).body).toEqual(created.body);
    expect((await api.get('/v1/events')).body.data.map((event: { id: string }) => event.id)).toContain(id);

    const updated = await api.patch(`/v1/events/${id}`, { name: 'Harbour Lights (late show)' });
    expect(updated.status).toBe(200);
    expect(updated.body.name).toBe('Harbour Lights (late show)');

    const recorded = await waitFor('webhooks to record both changes', async () => {
      const rows = await notificationsFor(id);
      return rows.length >= 2 ? rows : undefined;
    });
    expect(recorded).toEqual([
      { type: 'event.created', mode: 'test' },
      { type: 'event.updated', mode: 'test' },
    ]);
  });

  it('takes on create the nulls its answers give for fields left unset, as not given', async () => {
    const organization = await api.post('/v1/organizations', { name: 'Nulls Ltd', description: null, website: null, contact_email: null });
    expect(organization.status).toBe(200);
    expect(organization.body).toMatchObject({ description: null, website: null, contact_email: null });

    const unset = { ends_at: null, description: null, organization_id: null, venue: null, category: null };
    const event = await api.post('/v1/events', { name: 'Sent with nulls', starts_at: '2099-07-01T20:00:00Z', ...unset });
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject(unset);

    const tier = await api.post(`/v1/events/${event.body.id}/tiers`, { name: 'Floor', price: 1000, capacity: 10, sales_start_at: null, sales_end_at: null, max_per_order: null });
    expect(tier.status).toBe(200);
    expect(tier.body).toMatchObject({ sales_start_at: null, sales_end_at: null, max_per_order: null });

    const discount = await api.post('/v1/discounts', {
      code: null, percent_off: 10, amount_off: null, currency: null, valid_from: null, valid_until: null, max_redemptions: null, max_redemptions_per_customer: null,
    });
    expect(discount.status).toBe(200);
    expect(discount.body).toMatchObject({ code: null, percent_off: 10, amount_off: null, currency: null, valid_until: null, max_redemptions: null });

    const customer = await api.post('/v1/customers', { email: 'nulls@example.com', name: null });
    expect(customer.status).toBe(200);
    expect(customer.body).toMatchObject({ email: 'nulls@example.com', name: null });

    // A null is "not given", never a value: a discount still needs percent_off or amount_off.
    const valueless = await api.post('/v1/discounts', { percent_off: null, amount_off: null });
    expect(valueless.status).toBe(400);
    expect(valueless.body.error).toMatchObject({ code: 'parameter_missing', param: 'percent_off' });
  });

  it('refuses a bad event without writing anything', async () => {
    const before = await api.get('/v1/events?limit=100');
    const missing = await api.post('/v1/events', { name: 'No date' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_missing', param: 'starts_at' });
    const invalid = await api.post('/v1/events', { name: 'Bad date', starts_at: 'soon' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ code: 'parameter_invalid', param: 'starts_at' });
    expect((await api.get('/v1/events?limit=100')).body.data).toEqual(before.body.data);
  });

  it('answers 404 for an event that does not exist', async () => {
    const response = await api.get('/v1/events/evt_01JZZZZZZZZZZZZZZZZZZZZZZZ');
    expect(response.status).toBe(404);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing' });
    expect(response.body.error.request_id).toBe(response.headers.get('request-id'));
  });
});
