import { allocateQuotas, CART_ID_RANDOM_LENGTH, generateCartId } from './cart-positions.rules';
import { SALES_MESSAGES as MESSAGES, subeventProblem, variationProblem } from '../writing/sales.rules';

describe('cart position rules', () => {
  it('generates 48 random letters and digits ending in @api, different each time', () => {
    const ids = Array.from({ length: 50 }, () => generateCartId());
    for (const id of ids) expect(id).toMatch(new RegExp(`^[A-Za-z0-9]{${CART_ID_RANDOM_LENGTH}}@api$`));
    expect(new Set(ids).size).toBe(50);
  });

  it('applies the variation rule of compat §3.2 (the same for orders)', () => {
    const withVariations = { id: 1, hasVariations: true };
    const simple = { id: 2, hasVariations: false };
    expect(variationProblem(withVariations, null)).toBe(MESSAGES.variationRequired);
    expect(variationProblem(withVariations, 3)).toBe(MESSAGES.variationOtherItem);
    expect(variationProblem(withVariations, 1)).toBeNull();
    expect(variationProblem(simple, 2)).toBe(MESSAGES.variationNotAllowed);
    expect(variationProblem(simple, null)).toBeNull();
  });

  it('applies the sub-event rule: series need a date of their own, other events take none', () => {
    const single = { id: 1, hasSubevents: false };
    const series = { id: 1, hasSubevents: true };
    const dates = new Map([
      [4, { id: 4, eventId: 1 }],
      [5, { id: 5, eventId: 2 }],
    ]);
    expect(subeventProblem(single, null, dates)).toBeNull();
    expect(subeventProblem(single, 4, dates)).toBe(MESSAGES.subeventNotAllowed);
    expect(subeventProblem(series, null, dates)).toBe(MESSAGES.subeventRequired);
    expect(subeventProblem(series, 4, dates)).toBeNull();
    expect(subeventProblem(series, 5, dates)).toBe('The subevent does not belong to this event.');
    expect(subeventProblem(series, 6, dates)).toBe('Invalid pk "6" - object does not exist.');
  });

  describe('allocateQuotas', () => {
    const accept = () => null;

    it('hands out places in input order and refuses later entries on the first quota lacking a place', () => {
      const left = new Map<number, number | null>([
        [1, 2],
        [2, 1],
      ]);
      const result = allocateQuotas(
        [{ quotaIds: [1] }, { quotaIds: [2, 1] }, { quotaIds: [1] }, { quotaIds: [2] }],
        left,
        accept,
      );
      expect(result).toEqual([null, null, { quotaId: 1 }, { quotaId: 2 }]);
      expect([...left]).toEqual([
        [1, 0],
        [2, 0],
      ]);
    });

    it('never limits unlimited quotas, skips invalid entries and treats unknown quotas as full', () => {
      const left = new Map<number, number | null>([[1, null]]);
      const claims = [{ quotaIds: [1] }, null, { quotaIds: [1] }, { quotaIds: [9] }, { quotaIds: [] }];
      expect(allocateQuotas(claims, left, accept)).toEqual([null, undefined, null, { quotaId: 9 }, null]);
      expect(left.get(1)).toBeNull();
    });

    it('takes no place for an entry the further check refuses, so a later entry gets it', () => {
      const left = new Map<number, number | null>([[1, 1]]);
      const checked: number[] = [];
      const result = allocateQuotas([{ quotaIds: [1] }, { quotaIds: [1] }], left, (i) => {
        checked.push(i);
        return i === 0 ? 'voucher used up' : null;
      });
      expect(result).toEqual([{ refused: 'voucher used up' }, null]);
      expect(checked).toEqual([0, 1]);
      expect(left.get(1)).toBe(0);
    });

    it('does not run the further check when a quota is already full', () => {
      const check = jest.fn(() => null);
      expect(allocateQuotas([{ quotaIds: [1] }], new Map([[1, 0]]), check)).toEqual([{ quotaId: 1 }]);
      expect(check).not.toHaveBeenCalled();
    });
  });
});
