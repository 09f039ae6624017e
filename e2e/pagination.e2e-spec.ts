import { as, createAccount } from './support/api';

describe('list pagination through the gateway', () => {
  const total = 105;
  let api: ReturnType<typeof as>;
  let createdNewestFirst: string[];

  beforeAll(async () => {
    api = as((await createAccount()).secret_key);
    const ids: string[] = [];
    for (let index = 0; index < total; index += 1) {
      ids.push((await api.post('/v1/events', { name: `Night ${index}`, starts_at: '2027-05-01T20:00:00Z' })).body.id);
    }
    createdNewestFirst = ids.reverse();
  });

  it('answers the list envelope with 20 items by default, newest first', async () => {
    const page = await api.get('/v1/events');
    expect(page.body).toEqual({ object: 'list', data: expect.any(Array), has_more: true });
    expect(page.body.data.map((event: { id: string }) => event.id)).toEqual(createdNewestFirst.slice(0, 20));
  });

  it.each([
    ['0', 1],
    ['-3', 1],
    ['1', 1],
    ['100', 100],
    ['1000', 100],
  ])('clamps limit=%s to %i', async (limit, expected) => {
    expect((await api.get(`/v1/events?limit=${limit}`)).body.data).toHaveLength(expected);
  });

  it('walks every item exactly once with starting_after and ends with has_more false', async () => {
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 20; pages += 1) {
      const page = (await api.get(`/v1/events?limit=30${cursor ? `&starting_after=${cursor}` : ''}`)).body;
      seen.push(...page.data.map((event: { id: string }) => event.id));
      if (!page.has_more) break;
      cursor = page.data.at(-1).id;
    }
    expect(seen).toEqual(createdNewestFirst);
  });

  it('refuses an unknown starting_after and a non-numeric limit, naming the parameter', async () => {
    const unknown = await api.get('/v1/events?starting_after=evt_01JZZZZZZZZZZZZZZZZZZZZZZZ');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    const bad = await api.get('/v1/events?limit=many');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
  });
});
