import { ApiError } from '@ticketing/errors';
import { SoldOutMemo } from './sold-out-memo';

const TIER = 'acct_1/test/tier_1';
const soldOut = (message = "Tier 'tier_1' is sold out.") => new ApiError('sold_out', message);

describe('SoldOutMemo', () => {
  it("answers catalog's sold_out again for the quantities between those refused, and lets others ask catalog", () => {
    const memo = new SoldOutMemo(1_000);
    memo.remember(TIER, 2, soldOut("Tier 'tier_1' has 1 left, fewer than the 2 asked for."));
    expect(memo.refusalFor(TIER, 2)).toMatchObject({ code: 'sold_out', message: "Tier 'tier_1' has 1 left, fewer than the 2 asked for." });
    expect(memo.refusalFor(TIER, 1)).toBeNull();
    expect(memo.refusalFor('acct_1/test/tier_2', 2)).toBeNull();
    // Catalog refuses a quantity over the tier's max_per_order as that, not as sold_out: only catalog knows the limit.
    expect(memo.refusalFor(TIER, 3)).toBeNull();
    memo.remember(TIER, 4, soldOut("Tier 'tier_1' has 1 left, fewer than the 4 asked for."));
    expect(memo.refusalFor(TIER, 3)).toMatchObject({ code: 'sold_out', message: "Tier 'tier_1' has fewer than 3 left." });
    expect(memo.refusalFor(TIER, 5)).toBeNull();
    memo.remember(TIER, 1, soldOut());
    expect(memo.refusalFor(TIER, 1)).toMatchObject({ code: 'sold_out', message: "Tier 'tier_1' is sold out." });
    expect(memo.refusalFor(TIER, 4)).toMatchObject({ code: 'sold_out', message: "Tier 'tier_1' has fewer than 4 left." });
  });

  it('remembers only sold_out', () => {
    const memo = new SoldOutMemo(1_000);
    memo.remember(TIER, 1, new ApiError('tier_not_on_sale', 'closed'));
    memo.remember(TIER, 1, new Error('catalog unreachable'));
    expect(memo.refusalFor(TIER, 1)).toBeNull();
  });

  it('forgets after its window, and at once when units come back', async () => {
    const memo = new SoldOutMemo(50);
    memo.remember(TIER, 1, soldOut());
    memo.forgetAll();
    expect(memo.refusalFor(TIER, 1)).toBeNull();
    memo.remember(TIER, 1, soldOut());
    expect(memo.refusalFor(TIER, 1)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(memo.refusalFor(TIER, 1)).toBeNull();
  });

  it('remembers nothing with a window of 0', () => {
    const memo = new SoldOutMemo(0);
    memo.remember(TIER, 1, soldOut());
    expect(memo.refusalFor(TIER, 1)).toBeNull();
  });
});
