import { MAX_PREPARED_PARAMETERS, preparedStatementNames } from './statement-names';

describe('preparedStatementNames', () => {
  const select = 'SELECT "id" FROM "events" WHERE "id" = $1';

  it('names a statement after its SQL, the same way every time and in every process', () => {
    expect(preparedStatementNames()({ sql: select, args: ['evt_1'] })).toBe(preparedStatementNames()({ sql: select, args: ['evt_2'] }));
    expect(preparedStatementNames()({ sql: select, args: [] })).toMatch(/^prisma_[\w-]{32}$/);
  });

  it('gives different SQL different names', () => {
    const names = preparedStatementNames();
    expect(names({ sql: select, args: ['evt_1'] })).not.toBe(names({ sql: `${select} LIMIT $2`, args: ['evt_1', 1] }));
  });

  const parameters = (count: number, cast = '') => Array.from({ length: count }, (_, index) => `$${index + 1}${cast}`).join(', ');

  it('leaves statements with long parameter lists unnamed, so IN lists of every length do not pile up', () => {
    const names = preparedStatementNames();
    const inList = (count: number) => ({ sql: `SELECT 1 FROM "tiers" WHERE "id" IN (${parameters(count)})`, args: Array(count).fill('tier') });
    const valuesList = (count: number) => ({ sql: `INSERT INTO "tiers" VALUES (${parameters(count)})`, args: Array(count).fill('tier') });
    const arrayList = (count: number) => ({ sql: `SELECT unnest(ARRAY[${parameters(count)}])`, args: Array(count).fill('tier') });
    expect(names(inList(MAX_PREPARED_PARAMETERS))).not.toBe('');
    expect(names(inList(MAX_PREPARED_PARAMETERS + 1))).toBe('');
    expect(names(valuesList(MAX_PREPARED_PARAMETERS + 1))).toBe('');
    expect(names(arrayList(MAX_PREPARED_PARAMETERS + 1))).toBe('');
  });

  it('names a statement with many parameters but no list of them: its SQL is the same whatever the size of its batch', () => {
    // A batched statement passes each column of its batch as one array parameter.
    const batch = { sql: `INSERT INTO "tickets" SELECT * FROM unnest(${parameters(MAX_PREPARED_PARAMETERS + 4, '::text[]')}) WHERE $21 = $22`, args: [] };
    expect(preparedStatementNames()(batch)).toMatch(/^prisma_[\w-]{32}$/);
  });
});
