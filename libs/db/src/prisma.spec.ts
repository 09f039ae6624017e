import { isUniqueViolation } from './prisma';

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
