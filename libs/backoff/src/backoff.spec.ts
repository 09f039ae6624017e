import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  const backoff = { initialMs: 100, maxMs: 1_000 };

  it('doubles per failure and stops at the cap', () => {
    const ceilings = [1, 2, 3, 4, 5, 10].map((failures) => backoffDelay(failures, backoff, () => 1));
    expect(ceilings).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('never waits less than half the ceiling', () => {
    expect(backoffDelay(3, backoff, () => 0)).toBe(200);
  });
});
