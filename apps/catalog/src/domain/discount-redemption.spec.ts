import { customerLimitRefusal, redemptionRefusal } from './discount-redemption';
import { discountFixture } from './discount.fixture';

describe('refused redemptions', () => {
  const at = new Date('2027-02-15T12:00:00Z');

  it('names why the conditional update refused', () => {
    expect(redemptionRefusal(discountFixture({ active: false }), at)).toMatchObject({ code: 'discount_inactive', status: 409 });
    expect(redemptionRefusal(discountFixture({ valid_until: at }), at)).toMatchObject({ code: 'discount_inactive' });
    expect(redemptionRefusal(discountFixture({ max_redemptions: 2, times_redeemed: 2 }), at)).toMatchObject({ code: 'redemption_limit_reached', status: 409 });
  });

  it('reports the maximum when the discount looks usable again by the time it is read', () => {
    expect(redemptionRefusal(discountFixture(), at)).toMatchObject({ code: 'redemption_limit_reached' });
  });

  it('names the customer limit', () => {
    expect(customerLimitRefusal('dsc_1', 1)).toMatchObject({ code: 'customer_redemption_limit_reached', param: 'customer_id', status: 409 });
  });
});
