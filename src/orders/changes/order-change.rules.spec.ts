import { Decimal } from '../../common/values/money';
import {
  CHANGE_MESSAGES,
  duplicateProblem,
  quotaDifference,
  recalculatedLine,
  statusAfterChange,
} from './order-change.rules';

describe('order change rules', () => {
  it('names the first part that lists an object twice', () => {
    expect(
      duplicateProblem([
        ['patch_positions', [1, 2]],
        ['cancel_positions', [3, 3]],
        ['cancel_fees', [4, 4]],
      ]),
    ).toEqual({ cancel_positions: [CHANGE_MESSAGES.twice] });
    expect(duplicateProblem([['patch_positions', [1, 2]]])).toBeNull();
  });

  it('reserves only quotas whose places grow', () => {
    const a = { itemId: 1, variationId: null, subeventId: null };
    const b = { itemId: 2, variationId: null, subeventId: null };
    const quotas = new Map([
      ['1//', [10, 11]],
      ['2//', [11, 12]],
    ]);
    expect(quotaDifference([b], [a], quotas)).toEqual(new Map([[12, 1]]));
    expect(quotaDifference([a, a], [], quotas)).toEqual(
      new Map([
        [10, 2],
        [11, 2],
      ]),
    );
    expect(quotaDifference([], [a], quotas)).toEqual(new Map());
  });

  it('recalculates a line keeping the gross or the net price', () => {
    const rule = { id: 1, rate: '7.00', priceIncludesTax: true };
    const line = { price: '23.00', taxValue: '0.00', taxRate: '0.00' };
    expect(recalculatedLine(line, rule, 'keep_gross')).toMatchObject({
      gross: new Decimal('23.00'),
      tax: new Decimal('1.50'),
    });
    const ten = { ...rule, rate: '10.00' };
    const next = recalculatedLine({ price: '23.00', taxValue: '1.50', taxRate: '7.00' }, ten, 'keep_net')!;
    expect([next.gross.toFixed(2), next.tax.toFixed(2)]).toEqual(['23.65', '2.15']);
    expect(recalculatedLine({ price: '0.00', taxValue: '0', taxRate: '0' }, rule, 'keep_net')).toBeNull();
    expect(
      recalculatedLine({ price: '5.00', taxValue: '0.33', taxRate: '7.00' }, rule, 'keep_net'),
    ).toBeNull();
  });

  it('moves a paid order to pending when its total grows past the payments, and back', () => {
    const d = (v: string) => new Decimal(v);
    expect(statusAfterChange('p', d('10'), d('15'), d('10'), false)).toEqual({ status: 'n', newTerm: true });
    expect(statusAfterChange('p', d('10'), d('15'), d('20'), false)).toEqual({ status: 'p', newTerm: false });
    expect(statusAfterChange('n', d('15'), d('10'), d('10'), false)).toEqual({ status: 'p', newTerm: false });
    expect(statusAfterChange('n', d('15'), d('10'), d('10'), true)).toEqual({ status: 'n', newTerm: false });
    expect(statusAfterChange('n', d('10'), d('0'), d('0'), false)).toEqual({ status: 'p', newTerm: false });
  });
});
