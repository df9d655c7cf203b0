import {
  discountConfigErrors,
  DiscountConditions,
  MIN_COUNT_AND_VALUE,
  MIN_VALUE_WITH_CHEAPEST_N,
  MIN_VALUE_WITH_DISTINCT,
  NEITHER_MIN_COUNT_NOR_VALUE,
} from './discount.rules';

describe('discountConfigErrors (compat §3.25)', () => {
  const base: DiscountConditions = {
    condition_min_count: 0,
    condition_min_value: '0.00',
    benefit_only_apply_to_cheapest_n_matches: null,
    subevent_mode: 'mixed',
  };

  it.each<[Partial<DiscountConditions>]>([
    [{ condition_min_count: 2 }],
    [{ condition_min_count: 3, benefit_only_apply_to_cheapest_n_matches: 1 }],
    [{ condition_min_count: 2, subevent_mode: 'distinct' }],
    [{ condition_min_count: 2, subevent_mode: 'distinct', benefit_only_apply_to_cheapest_n_matches: 1 }],
    [{ condition_min_value: '50.00' }],
    [{ condition_min_value: 0.01, subevent_mode: 'same' }],
    [{ condition_min_value: '10', benefit_only_apply_to_cheapest_n_matches: 0 }],
  ])('allows %j', (changes) => {
    expect(discountConfigErrors({ ...base, ...changes })).toEqual([]);
  });

  it.each<[Partial<DiscountConditions>, string[]]>([
    [{ condition_min_count: 1, condition_min_value: '1.00' }, [MIN_COUNT_AND_VALUE]],
    [{}, [NEITHER_MIN_COUNT_NOR_VALUE]],
    [{ condition_min_value: 0 }, [NEITHER_MIN_COUNT_NOR_VALUE]],
    [{ benefit_only_apply_to_cheapest_n_matches: 2 }, [NEITHER_MIN_COUNT_NOR_VALUE]],
    [{ condition_min_value: '20', benefit_only_apply_to_cheapest_n_matches: 1 }, [MIN_VALUE_WITH_CHEAPEST_N]],
    [{ condition_min_value: '20', subevent_mode: 'distinct' }, [MIN_VALUE_WITH_DISTINCT]],
    [
      {
        condition_min_count: 2,
        condition_min_value: '20',
        benefit_only_apply_to_cheapest_n_matches: 1,
        subevent_mode: 'distinct',
      },
      [MIN_COUNT_AND_VALUE, MIN_VALUE_WITH_CHEAPEST_N, MIN_VALUE_WITH_DISTINCT],
    ],
  ])('refuses %j', (changes, errors) => {
    expect(discountConfigErrors({ ...base, ...changes })).toEqual(errors);
  });
});
