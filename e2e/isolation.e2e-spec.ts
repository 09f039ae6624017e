import { activateLive, as, createAccount } from './support/api';

describe('test and live data never mix', () => {
  it('hides each mode’s events from the other mode, and other accounts’ events from everyone', async () => {
    const account = await createAccount();
    const test = as(account.secret_key);
    const live = as((await activateLive(account.account_id)).secret_key);
    const stranger = as((await createAccount()).secret_key);

    const testEvent = (await test.post('/v1/events', { name: 'Sandbox Show', starts_at: '2027-03-01T19:00:00Z' })).body;
    const liveEvent = (await live.post('/v1/events', { name: 'Real Show', starts_at: '2027-03-02T19:00:00Z' })).body;
    expect(testEvent.livemode).toBe(false);
    expect(liveEvent.livemode).toBe(true);

    expect((await live.get(`/v1/events/${testEvent.id}`)).status).toBe(404);
    expect((await test.get(`/v1/events/${liveEvent.id}`)).status).toBe(404);
    expect((await stranger.get(`/v1/events/${testEvent.id}`)).status).toBe(404);
    expect((await live.patch(`/v1/events/${testEvent.id}`, { name: 'hijack' })).status).toBe(404);

    const ids = async (client: ReturnType<typeof as>) => (await client.get('/v1/events?limit=100')).body.data.map((event: { id: string }) => event.id);
    expect(await ids(test)).toEqual([testEvent.id]);
    expect(await ids(live)).toEqual([liveEvent.id]);
    expect(await ids(stranger)).toEqual([]);
  });
});
