import { activateLive, as, createAccount } from './support/api';
import { ids, walkList } from './support/lists';

describe('organizations through the gateway', () => {
  it('creates an organization and reads it back, alone and in the list', async () => {
    const api = as((await createAccount()).secret_key);
    const created = await api.post('/v1/organizations', {
      name: 'Northside Promotions',
      description: 'Promoters of the northern docks',
      website: 'https://northside.example',
      contact_email: 'box-office@northside.example',
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^org_[0-9A-Z]{26}$/),
      object: 'organization',
      livemode: false,
      name: 'Northside Promotions',
      description: 'Promoters of the northern docks',
      website: 'https://northside.example',
      contact_email: 'box-office@northside.example',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(Number.isNaN(Date.parse(created.body.created_at))).toBe(false);

    const fetched = await api.get(`/v1/organizations/${created.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);

    const minimal = await api.post('/v1/organizations', { name: 'Bare Minimum' });
    expect(minimal.status).toBe(200);
    expect(minimal.body).toMatchObject({ name: 'Bare Minimum', description: null, website: null, contact_email: null });

    const list = await api.get('/v1/organizations');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ object: 'list', data: [minimal.body, created.body], has_more: false });

    const missing = await api.get('/v1/organizations/org_01JZZZZZZZZZZZZZZZZZZZZZZZ');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing' });
  });

  it('lists 25 organizations newest first, 10 a page, each exactly once', async () => {
    const api = as((await createAccount()).secret_key);
    const created: string[] = [];
    for (let index = 0; index < 25; index += 1) {
      const response = await api.post('/v1/organizations', { name: `Promoter ${index}` });
      expect(response.status).toBe(200);
      created.push(response.body.id);
    }
    const newestFirst = [...created].reverse();

    const first = await api.get('/v1/organizations?limit=10');
    expect(first.body.has_more).toBe(true);
    expect(ids(first.body)).toEqual(newestFirst.slice(0, 10));

    const walked = await walkList(api, '/v1/organizations', 10);
    expect(walked.ids).toEqual(newestFirst);
    expect(walked.hasMoreFlags).toEqual([true, true, false]);

    const defaultPage = await api.get('/v1/organizations');
    expect(ids(defaultPage.body)).toEqual(newestFirst.slice(0, 20));
    expect(defaultPage.body.has_more).toBe(true);

    const unknownCursor = await api.get('/v1/organizations?starting_after=org_01JZZZZZZZZZZZZZZZZZZZZZZZ');
    expect(unknownCursor.status).toBe(400);
    expect(unknownCursor.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
  });

  it('updates only the fields sent, and null clears description, website and contact_email', async () => {
    const api = as((await createAccount()).secret_key);
    const created = (
      await api.post('/v1/organizations', { name: 'Old Name', description: 'Old description', website: 'https://old.example', contact_email: 'old@old.example' })
    ).body;

    const renamed = await api.patch(`/v1/organizations/${created.id}`, { name: 'New Name', website: 'http://new.example/path' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      id: created.id,
      name: 'New Name',
      description: 'Old description',
      website: 'http://new.example/path',
      contact_email: 'old@old.example',
      created_at: created.created_at,
    });
    expect(Date.parse(renamed.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));

    const cleared = await api.patch(`/v1/organizations/${created.id}`, { description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ name: 'New Name', description: null, website: 'http://new.example/path', contact_email: 'old@old.example' });

    const clearedContacts = await api.patch(`/v1/organizations/${created.id}`, { website: null, contact_email: null });
    expect(clearedContacts.status).toBe(200);
    expect(clearedContacts.body).toMatchObject({ name: 'New Name', description: null, website: null, contact_email: null });

    expect((await api.get(`/v1/organizations/${created.id}`)).body).toEqual(clearedContacts.body);

    const empty = await api.patch(`/v1/organizations/${created.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('parameter_missing');

    const missing = await api.patch('/v1/organizations/org_01JZZZZZZZZZZZZZZZZZZZZZZZ', { name: 'Ghost' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('resource_missing');
  });

  it('refuses invalid organizations with the parameter named, writing nothing', async () => {
    const api = as((await createAccount()).secret_key);
    const existing = (await api.post('/v1/organizations', { name: 'Keeper', website: 'https://keeper.example' })).body;
    const before = await api.get('/v1/organizations?limit=100');
    expect(ids(before.body)).toEqual([existing.id]);

    const cases: Array<[string, unknown, string, string]> = [
      ['bad website', { name: 'X', website: 'not a url' }, 'parameter_invalid', 'website'],
      ['ftp website', { name: 'X', website: 'ftp://files.example' }, 'parameter_invalid', 'website'],
      ['bad email', { name: 'X', contact_email: 'nobody-at-example' }, 'parameter_invalid', 'contact_email'],
      ['unknown field', { name: 'X', twitter: '@x' }, 'parameter_unknown', 'twitter'],
      ['missing name', { description: 'Nameless' }, 'parameter_missing', 'name'],
      ['blank name', { name: '   ' }, 'parameter_invalid', 'name'],
      ['name of the wrong type', { name: 42 }, 'parameter_invalid', 'name'],
    ];
    for (const [label, body, code, param] of cases) {
      const response = await api.post('/v1/organizations', body);
      expect({ label, status: response.status }).toEqual({ label, status: 400 });
      expect({ label, error: response.body.error }).toMatchObject({ label, error: { type: 'invalid_request_error', code, param } });
    }

    const badPatch = await api.patch(`/v1/organizations/${existing.id}`, { contact_email: 'still not an email' });
    expect(badPatch.status).toBe(400);
    expect(badPatch.body.error).toMatchObject({ code: 'parameter_invalid', param: 'contact_email' });
    const unknownPatch = await api.patch(`/v1/organizations/${existing.id}`, { name: 'Renamed', slug: 'renamed' });
    expect(unknownPatch.status).toBe(400);
    expect(unknownPatch.body.error).toMatchObject({ code: 'parameter_unknown', param: 'slug' });

    const after = await api.get('/v1/organizations?limit=100');
    expect(after.body.data).toEqual(before.body.data);
  });

  it('needs events:write to create and update, events:read to read', async () => {
    const root = as((await createAccount()).secret_key);
    const organization = (await root.post('/v1/organizations', { name: 'Scoped' })).body;
    const minted = await root.post('/v1/account/keys', { label: 'reader', scopes: ['events:read'] });
    expect(minted.status).toBe(200);
    const reader = as(minted.body.secret);

    const create = await reader.post('/v1/organizations', { name: 'Not allowed' });
    expect(create.status).toBe(403);
    expect(create.body.error).toMatchObject({ type: 'authorization_error', code: 'forbidden', message: 'Missing required scope: events:write' });
    const update = await reader.patch(`/v1/organizations/${organization.id}`, { name: 'Not allowed' });
    expect(update.status).toBe(403);
    expect(update.body.error.code).toBe('forbidden');

    expect((await reader.get(`/v1/organizations/${organization.id}`)).body).toEqual(organization);
    expect(ids((await reader.get('/v1/organizations')).body)).toEqual([organization.id]);

    const ticketsOnly = as((await root.post('/v1/account/keys', { label: 'tickets', scopes: ['tickets:read'] })).body.secret);
    const list = await ticketsOnly.get('/v1/organizations');
    expect(list.status).toBe(403);
    expect(list.body.error).toMatchObject({ code: 'forbidden', message: 'Missing required scope: events:read' });

    expect(ids((await root.get('/v1/organizations')).body)).toEqual([organization.id]);
  });

  it('keeps test and live organizations apart', async () => {
    const account = await createAccount();
    const test = as(account.secret_key);
    const live = as((await activateLive(account.account_id)).secret_key);
    const stranger = as((await createAccount()).secret_key);

    const testOrg = (await test.post('/v1/organizations', { name: 'Sandbox Org' })).body;
    const liveOrg = (await live.post('/v1/organizations', { name: 'Real Org' })).body;
    expect(testOrg.livemode).toBe(false);
    expect(liveOrg.livemode).toBe(true);

    const liveReadsTest = await live.get(`/v1/organizations/${testOrg.id}`);
    expect(liveReadsTest.status).toBe(404);
    expect(liveReadsTest.body.error.code).toBe('resource_missing');
    expect((await test.get(`/v1/organizations/${liveOrg.id}`)).status).toBe(404);
    expect((await stranger.get(`/v1/organizations/${testOrg.id}`)).status).toBe(404);
    expect((await live.patch(`/v1/organizations/${testOrg.id}`, { name: 'hijack' })).status).toBe(404);
    expect((await test.get(`/v1/organizations/${testOrg.id}`)).body.name).toBe('Sandbox Org');

    expect(ids((await test.get('/v1/organizations?limit=100')).body)).toEqual([testOrg.id]);
    expect(ids((await live.get('/v1/organizations?limit=100')).body)).toEqual([liveOrg.id]);
    expect(ids((await stranger.get('/v1/organizations?limit=100')).body)).toEqual([]);

    const crossCursor = await live.get(`/v1/organizations?starting_after=${testOrg.id}`);
    expect(crossCursor.status).toBe(400);
    expect(crossCursor.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
  });

  it('links events to an organization of the same account and mode, and filters events by it', async () => {
    const account = await createAccount();
    const api = as(account.secret_key);
    const live = as((await activateLive(account.account_id)).secret_key);
    const stranger = as((await createAccount()).secret_key);
    const north = (await api.post('/v1/organizations', { name: 'North' })).body;
    const south = (await api.post('/v1/organizations', { name: 'South' })).body;
    const liveOrg = (await live.post('/v1/organizations', { name: 'Live Org' })).body;
    const strangerOrg = (await stranger.post('/v1/organizations', { name: 'Someone else' })).body;

    const northEvents: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const created = await api.post('/v1/events', { name: `North night ${index}`, starts_at: '2027-09-01T20:00:00Z', organization_id: north.id });
      expect(created.status).toBe(200);
      expect(created.body.organization_id).toBe(north.id);
      northEvents.push(created.body.id);
    }
    const southEvent = (await api.post('/v1/events', { name: 'South night', starts_at: '2027-09-02T20:00:00Z', organization_id: south.id })).body;
    const independent = (await api.post('/v1/events', { name: 'Independent night', starts_at: '2027-09-03T20:00:00Z' })).body;
    expect(independent.organization_id).toBeNull();

    const before = ids((await api.get('/v1/events?limit=100')).body);
    for (const [label, organizationId] of [
      ['unknown', 'org_01JZZZZZZZZZZZZZZZZZZZZZZZ'],
      ['other mode', liveOrg.id],
      ['other account', strangerOrg.id],
    ]) {
      const refused = await api.post('/v1/events', { name: `Orphan (${label})`, starts_at: '2027-09-04T20:00:00Z', organization_id: organizationId });
      expect({ label, status: refused.status }).toEqual({ label, status: 400 });
      expect({ label, error: refused.body.error }).toMatchObject({ label, error: { code: 'resource_missing', param: 'organization_id' } });
    }
    const malformed = await api.post('/v1/events', { name: 'Orphan', starts_at: '2027-09-04T20:00:00Z', organization_id: 'acme' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'parameter_invalid', param: 'organization_id' });
    const movedToLive = await api.patch(`/v1/events/${southEvent.id}`, { organization_id: liveOrg.id });
    expect(movedToLive.status).toBe(400);
    expect(movedToLive.body.error).toMatchObject({ code: 'resource_missing', param: 'organization_id' });
    expect(ids((await api.get('/v1/events?limit=100')).body)).toEqual(before);
    expect((await api.get(`/v1/events/${southEvent.id}`)).body.organization_id).toBe(south.id);

    const filtered = await api.get(`/v1/events?organization_id=${north.id}`);
    expect(filtered.status).toBe(200);
    expect(ids(filtered.body)).toEqual([...northEvents].reverse());
    expect(filtered.body.has_more).toBe(false);
    expect(filtered.body.data.every((event: { organization_id: string }) => event.organization_id === north.id)).toBe(true);

    const walked = await walkList(api, `/v1/events?organization_id=${north.id}`, 2);
    expect(walked.ids).toEqual([...northEvents].reverse());
    expect(walked.hasMoreFlags).toEqual([true, false]);

    expect(ids((await api.get(`/v1/events?organization_id=${south.id}`)).body)).toEqual([southEvent.id]);
    expect(ids((await live.get(`/v1/events?organization_id=${north.id}`)).body)).toEqual([]);

    const moved = await api.patch(`/v1/events/${independent.id}`, { organization_id: south.id });
    expect(moved.status).toBe(200);
    expect(moved.body.organization_id).toBe(south.id);
    expect(ids((await api.get(`/v1/events?organization_id=${south.id}`)).body)).toEqual([independent.id, southEvent.id]);

    const unlinked = await api.patch(`/v1/events/${southEvent.id}`, { organization_id: null });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.organization_id).toBeNull();
    expect(ids((await api.get(`/v1/events?organization_id=${south.id}`)).body)).toEqual([independent.id]);
  });
});
