import { isDatabaseUnavailable, isUniqueViolation } from './prisma';

describe('isUniqueViolation', () => {
  it("recognises Prisma's own P2002 and a raw query's unique violation, and nothing else", () => {
    const raw = (kind: string) => ({ code: 'P2010', meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { originalCode: '23505', kind } } } });
    expect(isUniqueViolation({ code: 'P2002' })).toBe(true);
    expect(isUniqueViolation(raw('UniqueConstraintViolation'))).toBe(true);
    expect(isUniqueViolation(raw('NullConstraintViolation'))).toBe(false);
    expect(isUniqueViolation({ code: 'P2010' })).toBe(false);
    expect(isUniqueViolation(new Error('unique'))).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
  });
});

describe('isDatabaseUnavailable', () => {
  const adapterError = (cause: Record<string, string>) => ({ code: 'P2010', meta: { driverAdapterError: { name: 'DriverAdapterError', cause } } });

  it('recognises a connection the server ended or refused, and a pool with no connection in time, as Prisma and node-postgres report them', () => {
    expect(isDatabaseUnavailable(adapterError({ kind: 'postgres', originalCode: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(adapterError({ kind: 'postgres', originalCode: '08006' }))).toBe(true);
    expect(isDatabaseUnavailable(adapterError({ kind: 'ConnectionClosed' }))).toBe(true);
    expect(isDatabaseUnavailable({ code: 'P2024' })).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection'), { name: 'DriverAdapterError', cause: { kind: 'postgres', originalCode: '57P01' } }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
  });

  it('leaves every other failure an internal error', () => {
    expect(isDatabaseUnavailable(adapterError({ kind: 'postgres', originalCode: '42P01' }))).toBe(false);
    expect(isDatabaseUnavailable(adapterError({ kind: 'UniqueConstraintViolation' }))).toBe(false);
    expect(isDatabaseUnavailable({ code: 'P2002' })).toBe(false);
    expect(isDatabaseUnavailable(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
