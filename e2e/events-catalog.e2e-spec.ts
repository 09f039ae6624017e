import { waitFor } from '@ticketing/testing';
import { activateLive, as, createAccount } from './support/api';
import { queryServiceDatabase } from './support/databases';
import { type Client, ids, walkList } from './support/lists';
import { subscribeToEveryEvent } from './support/webhook-trail';

/** The has_more flags a walk of `count` items with pages of `limit` must show. */
const expectedFlags = (count: number, limit: number) => {
  const pages = Math.max(1, Math.ceil(count / limit));
  return Array.from({ length: pages }, (_, index) => index < pages - 1);
};

/** Types of the messages catalog committed to its outbox for this event, in order. */
const outboxTypes = async (eventId: string) =>
  (await queryServiceDatabase<{ type: string }>('catalog', `SELECT payload->>'type' AS type FROM outbox_messages WHERE message_key = $1 ORDER BY position`, [eventId])).map(
    (row) => row.type,
  );

describe('events: the full catalog resource through the gateway', () => {
  it('round-trips every field of an event, normalised, and clears fields with null', async () => {
    const api = as((await createAccount()).secret_key);
    const organization = (await api.post('/v1/organizations', { name: 'Paradiso Presents' })).body;
    const created = await api.post('/v1/events', {
      name: 'Harbour Lights',
      description: 'An evening of jazz on the quay.',
      organization_id: organization.id,
      venue: { name: 'Paradiso', address: 'Weteringschans 6-8', city: 'Amsterdam', country: 'nl', timezone: 'Europe/Amsterdam' },
      starts_at: '2027-07-01T20:00:00+02:00',
      ends_at: '2027-07-01T23:30:00Z',
      category: 'Music',
      tags: ['Jazz', 'outdoor', 'jazz'],
      currency: 'eur',
      waiting_room: { enabled: true, admission_rate_per_minute: 300 },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^evt_[0-9A-Z]{26}$/),
      object: 'event',
      livemode: false,
      name: 'Harbour Lights',
      description: 'An evening of jazz on the quay.',
      organization_id: organization.id,
      venue: { name: 'Paradiso', address: 'Weteringschans 6-8', city: 'Amsterdam', country: 'NL', timezone: 'Europe/Amsterdam' },
      starts_at: '2027-07-01T18:00:00.000Z',
      ends_at: '2027-07-01T23:30:00.000Z',
      category: 'music',
      tags: ['jazz', 'outdoor'],
      currency: 'EUR',
      status: 'draft',
      waiting_room: { enabled: true, admission_rate_per_minute: 300 },
      tiers: [],
      has_seatmap: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id: string = created.body.id;
    expect((await api.get(`/v1/events/${id}`)).body).toEqual(created.body);
    expect((await api.get('/v1/events')).body.data).toEqual([created.body]);

    const minimal = await api.post('/v1/events', { name: 'Bare', starts_at: '2027-07-02T20:00:00Z', venue: { name: 'Somewhere' } });
    expect(minimal.status).toBe(200);
    expect(minimal.body).toMatchObject({
      description: null,
      organization_id: null,
      venue: { name: 'Somewhere', address: null, city: null, country: null, timezone: null },
      ends_at: null,
      category: null,
      tags: [],
      currency: 'USD',
      status: 'draft',
      waiting_room: { enabled: false, admission_rate_per_minute: null },
    });

    // What was answered goes back as it is, nested nulls included: a create and a PATCH of its own fields (decision 0046).
    const { name, description, organization_id, venue, starts_at, ends_at, category, tags, currency, waiting_room } = minimal.body;
    const ownFields = { name, description, organization_id, venue, starts_at, ends_at, category, tags, currency, waiting_room };
    const copy = await api.post('/v1/events', ownFields);
    expect(copy.status).toBe(200);
    expect(copy.body).toMatchObject(ownFields);
    const resent = await api.patch(`/v1/events/${copy.body.id}`, ownFields);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject(ownFields);

    const changed = await api.patch(`/v1/events/${id}`, {
      name: 'Harbour Lights (late show)',
      venue: { name: 'Melkweg', city: 'Amsterdam', country: 'NL', timezone: 'Europe/Amsterdam' },
      tags: ['Late'],
      waiting_room: { enabled: false },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      ...created.body,
      name: 'Harbour Lights (late show)',
      venue: { name: 'Melkweg', address: null, city: 'Amsterdam', country: 'NL', timezone: 'Europe/Amsterdam' },
      tags: ['late'],
      // Paused: the room keeps its rate, so enabling it again needs none.
      waiting_room: { enabled: false, admission_rate_per_minute: 300 },
      updated_at: expect.any(String),
    });

    const cleared = await api.patch(`/v1/events/${id}`, { description: null, ends_at: null, venue: null, category: null, organization_id: null, tags: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ description: null, ends_at: null, venue: null, category: null, organization_id: null, tags: [], name: 'Harbour Lights (late show)' });
    expect((await api.get(`/v1/events/${id}`)).body).toEqual(cleared.body);

    const moved = await api.patch(`/v1/events/${id}`, { starts_at: '2027-08-01T19:00:00Z', ends_at: '2027-08-01T22:00:00Z' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ starts_at: '2027-08-01T19:00:00.000Z', ends_at: '2027-08-01T22:00:00.000Z' });
  });

  it('moves through draft → published → canceled, refuses illegal moves, and a final event stays as it is', async () => {
    const api = as((await createAccount()).secret_key);
    const event = (await api.post('/v1/events', { name: 'Lifecycle', starts_at: '2027-10-01T20:00:00Z' })).body;
    expect(event.status).toBe('draft');

    const skipped = await api.patch(`/v1/events/${event.id}`, { status: 'completed' });
    expect(skipped.status).toBe(409);
    expect(skipped.body.error).toMatchObject({ type: 'invalid_request_error', code: 'event_status_transition_invalid', param: 'status' });
    expect((await api.get(`/v1/events/${event.id}`)).body.status).toBe('draft');

    const published = await api.patch(`/v1/events/${event.id}`, { status: 'published' });
    expect(published.status).toBe(200);
    expect(published.body.status).toBe('published');
    const backToDraft = await api.patch(`/v1/events/${event.id}`, { status: 'draft' });
    expect(backToDraft.status).toBe(409);
    expect(backToDraft.body.error).toMatchObject({ code: 'event_status_transition_invalid', param: 'status' });

    const canceled = await api.patch(`/v1/events/${event.id}`, { status: 'canceled' });
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');

    const revived = await api.patch(`/v1/events/${event.id}`, { status: 'published' });
    expect(revived.status).toBe(409);
    expect(revived.body.error).toMatchObject({ type: 'invalid_request_error', code: 'event_status_transition_invalid', param: 'status' });
    const completed = await api.patch(`/v1/events/${event.id}`, { status: 'completed' });
    expect(completed.status).toBe(409);
    expect(completed.body.error.code).toBe('event_status_transition_invalid');

    const renamed = await api.patch(`/v1/events/${event.id}`, { name: 'Too late' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error).toMatchObject({ type: 'invalid_request_error', code: 'event_finalized' });
    const renamedWithStatus = await api.patch(`/v1/events/${event.id}`, { status: 'canceled', name: 'Too late' });
    expect(renamedWithStatus.status).toBe(409);
    expect(renamedWithStatus.body.error.code).toBe('event_finalized');

    const after = (await api.get(`/v1/events/${event.id}`)).body;
    expect(after).toMatchObject({ name: 'Lifecycle', status: 'canceled' });
    expect(after).toEqual(canceled.body);

    const other = (await api.post('/v1/events', { name: 'Completes', starts_at: '2027-10-02T20:00:00Z' })).body;
    await api.patch(`/v1/events/${other.id}`, { status: 'published' });
    const done = await api.patch(`/v1/events/${other.id}`, { status: 'completed' });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('completed');
    const cancelDone = await api.patch(`/v1/events/${other.id}`, { status: 'canceled' });
    expect(cancelDone.status).toBe(409);
    expect(cancelDone.body.error.code).toBe('event_status_transition_invalid');
    expect((await api.patch(`/v1/events/${other.id}`, { description: 'x' })).body.error.code).toBe('event_finalized');

    // Refused changes commit nothing: the outbox holds exactly the successful ones.
    expect(await outboxTypes(event.id)).toEqual(['event.created', 'event.published', 'event.canceled']);
    expect(await outboxTypes(other.id)).toEqual(['event.created', 'event.published', 'event.completed']);
  });

  it('publishes event.canceled, which the webhooks service records with the final facts', async () => {
    const api = as((await createAccount()).secret_key);
    await subscribeToEveryEvent(api);
    const event = (await api.post('/v1/events', { name: 'Rained Out', starts_at: '2027-11-01T20:00:00Z', currency: 'EUR' })).body;
    expect((await api.patch(`/v1/events/${event.id}`, { status: 'published' })).status).toBe(200);
    expect((await api.patch(`/v1/events/${event.id}`, { status: 'canceled' })).status).toBe(200);

    const recorded = await waitFor('webhooks to record the cancellation', async () => {
      const rows = await queryServiceDatabase<{ type: string; mode: string; data: { event_id: string; status: string; name: string; currency: string } }>(
        'webhooks',
        `SELECT type, mode, data FROM notifications WHERE data->>'event_id' = $1 ORDER BY id`,
        [event.id],
      );
      return rows.some((row) => row.type === 'event.canceled') ? rows : undefined;
    });
    expect(recorded.map((row) => [row.type, row.mode])).toEqual([
      ['event.created', 'test'],
      ['event.published', 'test'],
      ['event.canceled', 'test'],
    ]);
    expect(recorded[2]!.data).toMatchObject({ event_id: event.id, status: 'canceled', name: 'Rained Out', currency: 'EUR' });
  });

  it('refuses invalid events and changes with the parameter named, writing nothing', async () => {
    const api = as((await createAccount()).secret_key);
    const existing = (await api.post('/v1/events', { name: 'Keeper', starts_at: '2027-05-01T20:00:00Z', ends_at: '2027-05-01T23:00:00Z' })).body;
    const before = (await api.get('/v1/events?limit=100')).body.data;
    expect(before).toEqual([existing]);
    const base = { name: 'Bad', starts_at: '2027-06-01T20:00:00Z' };

    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['ends before it starts', { ...base, ends_at: '2027-06-01T19:00:00Z' }, 'parameter_invalid', 'ends_at'],
      ['ends when it starts', { ...base, ends_at: '2027-06-01T20:00:00Z' }, 'parameter_invalid', 'ends_at'],
      ['unknown time zone', { ...base, venue: { name: 'V', timezone: 'Mars/Olympus_Mons' } }, 'parameter_invalid', 'venue.timezone'],
      ['three-letter country', { ...base, venue: { name: 'V', country: 'NLD' } }, 'parameter_invalid', 'venue.country'],
      ['unassigned country code', { ...base, venue: { name: 'V', country: 'ZZ' } }, 'parameter_invalid', 'venue.country'],
      ['venue without a name', { ...base, venue: { city: 'Utrecht' } }, 'parameter_missing', 'venue.name'],
      ['unknown venue field', { ...base, venue: { name: 'V', capacity: 400 } }, 'parameter_unknown', 'venue.capacity'],
      ['enabled room without a rate', { ...base, waiting_room: { enabled: true } }, 'parameter_missing', 'waiting_room.admission_rate_per_minute'],
      ['rate of zero', { ...base, waiting_room: { enabled: true, admission_rate_per_minute: 0 } }, 'parameter_invalid', 'waiting_room.admission_rate_per_minute'],
      ['fractional rate', { ...base, waiting_room: { enabled: true, admission_rate_per_minute: 2.5 } }, 'parameter_invalid', 'waiting_room.admission_rate_per_minute'],
      ['enabled as a string', { ...base, waiting_room: { enabled: 'yes', admission_rate_per_minute: 10 } }, 'parameter_invalid', 'waiting_room.enabled'],
      ['name as a number', { ...base, name: 42 }, 'parameter_invalid', 'name'],
      ['a lone surrogate in the name, which would be stored as U+FFFD', { ...base, name: 'Bad \ud800' }, 'parameter_invalid', 'name'],
      ['starts_at as a number', { ...base, starts_at: 1_798_000_000 }, 'parameter_invalid', 'starts_at'],
      ['starts_at in year 0000, which no database stores', { ...base, starts_at: '0000-01-01T00:00:00Z' }, 'parameter_invalid', 'starts_at'],
      ['ends_at in year 0000 once in UTC', { ...base, ends_at: '0001-01-01T00:59:59+01:00' }, 'parameter_invalid', 'ends_at'],
      ['tags as a string', { ...base, tags: 'jazz' }, 'parameter_invalid', 'tags'],
      ['a tag as a number', { ...base, tags: ['jazz', 7] }, 'parameter_invalid', 'tags[1]'],
      ['too many tags', { ...base, tags: Array.from({ length: 21 }, (_, index) => `tag${index}`) }, 'parameter_invalid', 'tags'],
      ['venue as a string', { ...base, venue: 'Paradiso' }, 'parameter_invalid', 'venue'],
      ['four-letter currency', { ...base, currency: 'EURO' }, 'parameter_invalid', 'currency'],
      ['three letters that are no ISO 4217 currency', { ...base, currency: 'QQQ' }, 'parameter_invalid', 'currency'],
      ['status on create', { ...base, status: 'published' }, 'parameter_unknown', 'status'],
      ['unknown field', { ...base, capacity: 100 }, 'parameter_unknown', 'capacity'],
      ['missing name', { starts_at: base.starts_at }, 'parameter_missing', 'name'],
    ];
    for (const [label, body, code, param] of cases) {
      const response = await api.post('/v1/events', body);
      expect({ label, status: response.status }).toEqual({ label, status: 400 });
      expect({ label, error: response.body.error }).toMatchObject({ label, error: { type: 'invalid_request_error', code, param } });
    }

    const patches: Array<[string, Record<string, unknown>, string, string]> = [
      ['ends before the stored start', { ends_at: '2027-05-01T19:00:00Z' }, 'parameter_invalid', 'ends_at'],
      ['starts after the stored end', { starts_at: '2027-05-02T20:00:00Z' }, 'parameter_invalid', 'ends_at'],
      ['unknown status', { status: 'archived' }, 'parameter_invalid', 'status'],
      ['bad time zone', { venue: { name: 'V', timezone: 'Nowhere/Land' } }, 'parameter_invalid', 'venue.timezone'],
      ['enabled room without a rate', { waiting_room: { enabled: true } }, 'parameter_missing', 'waiting_room.admission_rate_per_minute'],
      ['tags as null', { tags: null }, 'parameter_invalid', 'tags'],
      ['name as null', { name: null }, 'parameter_invalid', 'name'],
      ['unknown field', { name: 'Renamed', colour: 'blue' }, 'parameter_unknown', 'colour'],
    ];
    for (const [label, body, code, param] of patches) {
      const response = await api.patch(`/v1/events/${existing.id}`, body);
      expect({ label, status: response.status }).toEqual({ label, status: 400 });
      expect({ label, error: response.body.error }).toMatchObject({ label, error: { type: 'invalid_request_error', code, param } });
    }
    const empty = await api.patch(`/v1/events/${existing.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('parameter_missing');

    expect((await api.get('/v1/events?limit=100')).body.data).toEqual(before);
    expect(await outboxTypes(existing.id)).toEqual(['event.created']);
  });

  describe('list filters, each combined with pagination', () => {
    let api: Client;
    let live: Client;
    let organizationId: string;
    /** Events by key, created in a different order from their dates so "newest first" is checkable. */
    const events: Record<string, { id: string; name: string; starts_at: string; status: string; organization_id: string | null }> = {};
    let createdOrder: string[] = [];
    const specs: Array<{ key: string; name: string; starts_at: string; status: 'draft' | 'published' | 'canceled'; org: boolean }> = [
      { key: 'e4', name: 'HARBOUR Lights III', starts_at: '2027-05-10T20:00:00Z', status: 'canceled', org: false },
      { key: 'e1', name: 'Jazz Brunch', starts_at: '2027-02-10T20:00:00Z', status: 'published', org: false },
      { key: 'e6', name: 'Harbour Fest', starts_at: '2027-07-10T20:00:00Z', status: 'published', org: true },
      { key: 'e0', name: 'Harbour Lights I', starts_at: '2027-01-10T20:00:00Z', status: 'draft', org: false },
      { key: 'e3', name: 'Rock Night', starts_at: '2027-04-10T20:00:00Z', status: 'published', org: true },
      { key: 'e7', name: 'Opera Gala', starts_at: '2027-08-10T20:00:00Z', status: 'draft', org: true },
      { key: 'e2', name: 'harbour lights II', starts_at: '2027-03-10T20:00:00Z', status: 'published', org: false },
      { key: 'e10', name: 'Poetry Slam', starts_at: '2027-02-20T20:00:00Z', status: 'canceled', org: false },
      { key: 'e5', name: 'Folk Evening', starts_at: '2027-06-10T20:00:00Z', status: 'published', org: true },
      { key: 'e11', name: 'Harbour Finale', starts_at: '2027-06-20T20:00:00Z', status: 'published', org: true },
      { key: 'e9', name: 'Harbour Dawn', starts_at: '2027-01-20T20:00:00Z', status: 'draft', org: false },
      { key: 'e8', name: 'Blues Matinee', starts_at: '2027-09-10T20:00:00Z', status: 'canceled', org: true },
    ];

    /** The ids of the events matching `predicate`, newest (last created) first. */
    const matching = (predicate: (event: (typeof events)[string]) => boolean) =>
      [...createdOrder].reverse().filter((key) => predicate(events[key]!)).map((key) => events[key]!.id);

    beforeAll(async () => {
      const account = await createAccount();
      api = as(account.secret_key);
      live = as((await activateLive(account.account_id)).secret_key);
      organizationId = (await api.post('/v1/organizations', { name: 'Dockside' })).body.id;
      for (const spec of specs) {
        const created = await api.post('/v1/events', { name: spec.name, starts_at: spec.starts_at, ...(spec.org ? { organization_id: organizationId } : {}) });
        expect(created.status).toBe(200);
        if (spec.status !== 'draft') expect((await api.patch(`/v1/events/${created.body.id}`, { status: 'published' })).status).toBe(200);
        if (spec.status === 'canceled') expect((await api.patch(`/v1/events/${created.body.id}`, { status: 'canceled' })).status).toBe(200);
        events[spec.key] = { id: created.body.id, name: spec.name, starts_at: spec.starts_at, status: spec.status, organization_id: spec.org ? organizationId : null };
      }
      createdOrder = specs.map((spec) => spec.key);
      // Another mode's events match the same filters and must never show.
      await live.post('/v1/events', { name: 'Harbour Lights Live', starts_at: '2027-03-15T20:00:00Z' });
      const liveEvent = (await live.post('/v1/events', { name: 'Harbour Live Published', starts_at: '2027-06-15T20:00:00Z' })).body;
      await live.patch(`/v1/events/${liveEvent.id}`, { status: 'published' });
    });

    const at = (iso: string) => new Date(iso).getTime();

    it.each<[string, string, (event: (typeof events)[string]) => boolean]>([
      ['no filter', '', () => true],
      ['status=published', 'status=published', (event) => event.status === 'published'],
      ['status=draft', 'status=draft', (event) => event.status === 'draft'],
      ['status=canceled', 'status=canceled', (event) => event.status === 'canceled'],
      ['starts_after (exclusive)', `starts_after=${encodeURIComponent('2027-03-10T20:00:00Z')}`, (event) => at(event.starts_at) > at('2027-03-10T20:00:00Z')],
      ['starts_before (exclusive)', `starts_before=${encodeURIComponent('2027-06-10T20:00:00Z')}`, (event) => at(event.starts_at) < at('2027-06-10T20:00:00Z')],
      [
        'starts_after and starts_before',
        `starts_after=${encodeURIComponent('2027-02-01T00:00:00+01:00')}&starts_before=${encodeURIComponent('2027-07-01T00:00:00Z')}`,
        (event) => at(event.starts_at) > at('2027-02-01T00:00:00+01:00') && at(event.starts_at) < at('2027-07-01T00:00:00Z'),
      ],
      ['q, case-insensitive part of the name', 'q=hArBoUr', (event) => event.name.toLowerCase().includes('harbour')],
      ['q in the middle of the name', 'q=IGHTS%20I', (event) => event.name.toLowerCase().includes('ights i')],
      ['organization_id', 'ORG', (event) => event.organization_id !== null],
      ['status and q', 'status=published&q=harbour', (event) => event.status === 'published' && event.name.toLowerCase().includes('harbour')],
      [
        'organization_id, status and starts_before',
        `ORG&status=published&starts_before=${encodeURIComponent('2027-07-01T00:00:00Z')}`,
        (event) => event.organization_id !== null && event.status === 'published' && at(event.starts_at) < at('2027-07-01T00:00:00Z'),
      ],
    ])('%s', async (_label, rawQuery, predicate) => {
      const query = rawQuery.replace('ORG', `organization_id=${organizationId}`);
      const expected = matching(predicate);
      // More than one page of two for every filter, so the walk really crosses pages.
      expect(expected.length).toBeGreaterThan(2);

      const walked = await walkList(api, `/v1/events${query ? `?${query}` : ''}`, 2);
      expect(walked.ids).toEqual(expected);
      expect(walked.hasMoreFlags).toEqual(expectedFlags(expected.length, 2));

      const onePage = await api.get(`/v1/events?${query}${query ? '&' : ''}limit=100`);
      expect(ids(onePage.body)).toEqual(expected);
      expect(onePage.body.has_more).toBe(false);
    });

    it('pages the broad filters over three full pages of two', async () => {
      for (const filter of ['status=published', 'q=harbour']) {
        const walked = await walkList(api, `/v1/events?${filter}`, 2);
        expect({ filter, count: walked.ids.length, hasMoreFlags: walked.hasMoreFlags }).toEqual({ filter, count: 6, hasMoreFlags: [true, true, false] });
      }
    });

    it('answers an empty list when nothing matches', async () => {
      const none = await api.get('/v1/events?q=zzz-no-such-name&limit=2');
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ object: 'list', data: [], has_more: false });
      expect((await api.get('/v1/events?status=completed')).body.data).toEqual([]);
      expect((await api.get('/v1/events?organization_id=org_01JZZZZZZZZZZZZZZZZZZZZZZZ')).body.data).toEqual([]);
    });

    it('refuses bad filter values naming the parameter', async () => {
      const cases: Array<[string, string, string]> = [
        ['status=archived', 'parameter_invalid', 'status'],
        ['starts_after=yesterday', 'parameter_invalid', 'starts_after'],
        ['starts_before=2027-13-45', 'parameter_invalid', 'starts_before'],
        ['starts_after=0000-06-01T00:00:00Z', 'parameter_invalid', 'starts_after'],
        ['venue=Paradiso', 'parameter_unknown', 'venue'],
      ];
      for (const [query, code, param] of cases) {
        const response = await api.get(`/v1/events?${query}`);
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
        expect({ query, error: response.body.error }).toMatchObject({ query, error: { code, param } });
      }
    });

    it('keeps the other mode out of every filter', async () => {
      const liveHarbour = await live.get('/v1/events?q=harbour&limit=100');
      expect(liveHarbour.body.data.map((event: { name: string }) => event.name)).toEqual(['Harbour Live Published', 'Harbour Lights Live']);
      expect((await live.get('/v1/events?status=published')).body.data.map((event: { name: string }) => event.name)).toEqual(['Harbour Live Published']);
      expect((await live.get(`/v1/events?organization_id=${organizationId}`)).body.data).toEqual([]);
      const crossCursor = await live.get(`/v1/events?status=published&starting_after=${events.e5!.id}`);
      expect(crossCursor.status).toBe(400);
      expect(crossCursor.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    });
  });

  it('matches q as a literal part of the name: % and _ are not wildcards', async () => {
    const api = as((await createAccount()).secret_key);
    const names = ['100% Jazz', '1000 Jazz', 'A_B Session', 'AXB Session'];
    const created: Record<string, string> = {};
    for (const name of names) created[name] = (await api.post('/v1/events', { name, starts_at: '2027-01-01T20:00:00Z' })).body.id;
    const search = async (q: string) => ids((await api.get(`/v1/events?q=${encodeURIComponent(q)}&limit=100`)).body);

    expect(await search('0% j')).toEqual([created['100% Jazz']]);
    expect(await search('%')).toEqual([created['100% Jazz']]);
    expect(await search('a_b')).toEqual([created['A_B Session']]);
    expect(await search('_')).toEqual([created['A_B Session']]);
  });

  it('embeds the event’s tiers, by rank, in the event and its list item', async () => {
    const api = as((await createAccount()).secret_key);
    const event = (await api.post('/v1/events', { name: 'Tiered', starts_at: '2027-09-01T20:00:00Z', currency: 'EUR' })).body;
    const vip = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'VIP', price: 9000, capacity: 50, rank: 2 })).body;
    const general = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'General', price: 4500, capacity: 500, rank: 1 })).body;
    const standing = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'Standing', price: 3000, capacity: 200, rank: 1 })).body;
    expect([vip.object, general.object, standing.object]).toEqual(['tier', 'tier', 'tier']);

    const fetched = (await api.get(`/v1/events/${event.id}`)).body;
    expect(fetched.tiers).toEqual([general, standing, vip]);
    expect(fetched.tiers[0]).toMatchObject({ event_id: event.id, currency: 'EUR', price: 4500, capacity: 500, held: 0, sold: 0, available: 500 });

    const listed = (await api.get('/v1/events')).body.data;
    expect(listed).toHaveLength(1);
    expect(listed[0].tiers).toEqual([general, standing, vip]);
  });

  it('locks the currency once the event has a tier', async () => {
    const api = as((await createAccount()).secret_key);
    const event = (await api.post('/v1/events', { name: 'Priced', starts_at: '2027-09-01T20:00:00Z', currency: 'EUR' })).body;

    const switched = await api.patch(`/v1/events/${event.id}`, { currency: 'gbp' });
    expect(switched.status).toBe(200);
    expect(switched.body.currency).toBe('GBP');

    const tier = (await api.post(`/v1/events/${event.id}/tiers`, { name: 'General', price: 2500, capacity: 100 })).body;
    expect(tier.currency).toBe('GBP');

    const locked = await api.patch(`/v1/events/${event.id}`, { currency: 'USD' });
    expect(locked.status).toBe(409);
    expect(locked.body.error).toMatchObject({ type: 'invalid_request_error', code: 'event_currency_locked', param: 'currency' });
    const lockedWithName = await api.patch(`/v1/events/${event.id}`, { name: 'Renamed', currency: 'USD' });
    expect(lockedWithName.status).toBe(409);
    expect(lockedWithName.body.error.code).toBe('event_currency_locked');

    const fetched = (await api.get(`/v1/events/${event.id}`)).body;
    expect(fetched).toMatchObject({ name: 'Priced', currency: 'GBP' });
    expect(fetched.tiers[0].currency).toBe('GBP');

    const same = await api.patch(`/v1/events/${event.id}`, { currency: 'gbp', name: 'Priced again' });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ currency: 'GBP', name: 'Priced again' });
  });

  it('keeps each mode’s events out of the other’s reads, changes and lists', async () => {
    const account = await createAccount();
    const test = as(account.secret_key);
    const live = as((await activateLive(account.account_id)).secret_key);
    const testEvent = (await test.post('/v1/events', { name: 'Sandbox', starts_at: '2027-03-01T19:00:00Z', venue: { name: 'Test Hall' } })).body;
    const liveEvent = (await live.post('/v1/events', { name: 'Real', starts_at: '2027-03-02T19:00:00Z' })).body;
    expect(liveEvent.livemode).toBe(true);

    for (const [client, id] of [
      [live, testEvent.id],
      [test, liveEvent.id],
    ] as const) {
      const read = await client.get(`/v1/events/${id}`);
      expect(read.status).toBe(404);
      expect(read.body.error.code).toBe('resource_missing');
      expect((await client.patch(`/v1/events/${id}`, { name: 'hijack' })).status).toBe(404);
      expect((await client.patch(`/v1/events/${id}`, { status: 'published' })).status).toBe(404);
    }
    expect((await test.get(`/v1/events/${testEvent.id}`)).body).toEqual(testEvent);
    expect((await live.get(`/v1/events/${liveEvent.id}`)).body).toEqual(liveEvent);

    expect(ids((await test.get('/v1/events?limit=100')).body)).toEqual([testEvent.id]);
    expect(ids((await live.get('/v1/events?limit=100')).body)).toEqual([liveEvent.id]);
  });
});
