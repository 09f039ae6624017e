import { processingFee } from './fees';

describe('processingFee', () => {
  const schedule = { percentBps: 290, fixed: 30 };

  it('takes the share of the amount, rounded half up, plus the fixed part', () => {
    expect(processingFee(10_000, schedule)).toBe(320);
    // 2.9 % of 1,050 is 30.45 → 30; of 1,069 is 31.001 → 31; of 1,086 is 31.494 → 31; of 1,087 is 31.523 → 32.
    expect(processingFee(1_050, schedule)).toBe(60);
    expect(processingFee(1_069, schedule)).toBe(61);
    expect(processingFee(1_086, schedule)).toBe(61);
    expect(processingFee(1_087, schedule)).toBe(62);
  });

  it('never takes more than the payment', () => {
    expect(processingFee(20, schedule)).toBe(20);
    expect(processingFee(1, { percentBps: 0, fixed: 0 })).toBe(0);
  });
});
