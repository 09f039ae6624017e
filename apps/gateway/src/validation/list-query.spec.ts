import { listQuery, pageRequest } from './list-query';

const parse = (query: Record<string, unknown>) => listQuery.safeParse(query);

describe('list query', () => {
  it.each([
    ['0', 1],
    ['-3', 1],
    ['1', 1],
    ['37', 37],
    ['100', 100],
    ['1000', 100],
    ['9007199254740992', 100],
    ['99999999999999999999999', 100],
    ['-99999999999999999999999', 1],
  ])('clamps limit=%s to %i', (limit, expected) => {
    expect(parse({ limit }).data?.limit).toBe(expected);
  });

  it.each(['many', '1.5', '', '10abc'])('refuses limit=%p naming the parameter', (limit) => {
    expect(parse({ limit }).error?.issues[0]).toMatchObject({ path: ['limit'] });
  });

  it('refuses a repeated limit and unknown parameters', () => {
    expect(parse({ limit: ['1', '2'] }).success).toBe(false);
    expect(parse({ page: '2' }).error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['page'] });
  });

  it('asks services for 20 items from the start by default', () => {
    expect(pageRequest(listQuery.parse({}))).toEqual({ limit: 20, starting_after: '' });
    expect(pageRequest(listQuery.parse({ limit: '5', starting_after: 'evt_1' }))).toEqual({ limit: 5, starting_after: 'evt_1' });
  });
});
