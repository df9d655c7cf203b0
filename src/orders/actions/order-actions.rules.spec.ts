import { productKey } from '../../catalogue/quotas/quota-lookup.service';
import { Decimal } from '../../common/values/money';
import {
  ACTION_MESSAGES,
  ActionRefused,
  cancellationFee,
  cancellationFeeRefusal,
  endOfDayIn,
  newExpiry,
  placesNeeded,
  redoRefusal,
  revivedProducts,
} from './order-actions.rules';
import { openAmount, paidCredit } from '../payments/order-payments.rules';

/** Pure rules of the order actions (compat §4.4 "Actions"). */
describe('order action rules', () => {
  const pay = (state: string, amount: string) => ({ state, amount });

  describe('paidCredit / openAmount', () => {
    it('sums only confirmed payments', () => {
      const payments = [
        pay('confirmed', '10.00'),
        pay('pending', '5.00'),
        pay('canceled', '7.00'),
        pay('confirmed', '2.50'),
      ];
      expect(paidCredit(payments).toFixed(2)).toBe('12.50');
      expect(paidCredit([]).toFixed(2)).toBe('0.00');
    });

    it('is the total minus the credit, never negative', () => {
      expect(openAmount('30.00', [pay('confirmed', '12.50')]).toFixed(2)).toBe('17.50');
      expect(openAmount('30.00', []).toFixed(2)).toBe('30.00');
      expect(openAmount('10.00', [pay('confirmed', '15.00')]).toFixed(2)).toBe('0.00');
    });
  });

  describe('cancellationFeeRefusal', () => {
    const d = (v: string) => new Decimal(v);
    it('accepts a fee up to the credit and the total', () => {
      expect(cancellationFeeRefusal(d('5.00'), d('20.00'), d('20.00'))).toBeNull();
      expect(cancellationFeeRefusal(d('20.00'), d('20.00'), d('20.00'))).toBeNull();
    });
    it('refuses a fee above the total, then one above the credit', () => {
      expect(cancellationFeeRefusal(d('20.01'), d('20.00'), d('30.00'))).toBe(ACTION_MESSAGES.feeAboveTotal);
      expect(cancellationFeeRefusal(d('5.00'), d('20.00'), d('4.99'))).toBe(ACTION_MESSAGES.feeAboveCredit);
      expect(cancellationFeeRefusal(d('0.01'), d('20.00'), d('0'))).toBe(ACTION_MESSAGES.feeAboveCredit);
    });
  });

  describe('endOfDayIn / newExpiry', () => {
    it('is 23:59:59 of that day in the zone, in UTC', () => {
      expect(endOfDayIn('2030-10-28', 'UTC').toISOString()).toBe('2030-10-28T23:59:59.000Z');
      expect(endOfDayIn('2030-07-01', 'Europe/Berlin').toISOString()).toBe('2030-07-01T21:59:59.000Z');
      expect(endOfDayIn('2030-01-15', 'Europe/Berlin').toISOString()).toBe('2030-01-15T22:59:59.000Z');
      expect(endOfDayIn('2030-01-15', 'America/New_York').toISOString()).toBe('2030-01-16T04:59:59.000Z');
    });

    it('falls back to UTC for an unknown zone', () => {
      expect(endOfDayIn('2030-10-28', 'Mars/Olympus').toISOString()).toBe('2030-10-28T23:59:59.000Z');
    });

    const refusal = (value: unknown): string | null => {
      try {
        newExpiry(value, 'UTC');
        return null;
      } catch (err) {
        return err instanceof ActionRefused ? err.detail : String(err);
      }
    };

    it('refuses a missing date', () => {
      for (const v of [undefined, null, '']) expect(refusal(v)).toBe('New date is missing.');
    });

    it('refuses a malformed date', () => {
      for (const v of [
        '2030-02-30',
        '28.10.2030',
        '2030-10-28T12:00:00Z',
        20301028,
        true,
        {},
        ['2030-10-28'],
      ])
        expect(refusal(v)).toBe('New date is invalid.');
    });

    it('accepts YYYY-MM-DD', () => {
      expect(newExpiry('2030-10-28', 'Europe/Berlin').toISOString()).toBe('2030-10-28T22:59:59.000Z');
    });
  });

  describe('redoRefusal', () => {
    it("words the vouchers' redo problems as pretix's action refusals", () => {
      expect(redoRefusal('used_up')).toBe(ACTION_MESSAGES.voucherUsedUp);
      expect(redoRefusal('budget')).toBe(ACTION_MESSAGES.voucherBudget);
    });
  });

  describe('cancellationFee', () => {
    it('is gross, taxed by the default rule when there is one', () => {
      const rule = { id: 4, eventId: 1, rate: '19.00', priceIncludesTax: true, code: null };
      expect(cancellationFee(new Decimal('11.90'), rule)).toEqual({
        feeType: 'cancellation',
        value: '11.90',
        description: '',
        internalType: '',
        taxRate: '19.00',
        taxValue: '1.90',
        taxRuleId: 4,
        taxCode: null,
        canceled: false,
        canceledWithOrder: false,
      });
      expect(cancellationFee(new Decimal('5'), null)).toMatchObject({
        value: '5.00',
        taxRate: '0.00',
        taxValue: '0.00',
        taxRuleId: null,
      });
    });
  });

  describe('placesNeeded', () => {
    const pos = (itemId: number, variationId: number | null, voucherId: number | null = null) => ({
      itemId,
      variationId,
      subeventId: null,
      voucherId,
    });

    it('needs one place per position on every quota of its product, summed per quota', () => {
      const quotas = new Map([
        [productKey(pos(1, null)), [10, 11]],
        [productKey(pos(2, 7)), [11]],
      ]);
      const needed = placesNeeded([pos(1, null), pos(1, null), pos(2, 7)], quotas, () => false);
      expect([...needed.entries()].sort()).toEqual([
        [10, 2],
        [11, 3],
      ]);
    });

    it('skips positions whose voucher ignores quotas', () => {
      const quotas = new Map([[productKey(pos(1, null)), [10]]]);
      const needed = placesNeeded([pos(1, null, 4), pos(1, null, 5)], quotas, (id) => id === 4);
      expect([...needed.entries()]).toEqual([[10, 1]]);
    });

    it('lists the distinct products that draw quota, in position order', () => {
      const positions = [pos(2, 7), pos(1, null, 4), pos(2, 7), pos(3, null)];
      expect(revivedProducts(positions, (id) => id === 4)).toEqual([
        { itemId: 2, variationId: 7, subeventId: null },
        { itemId: 3, variationId: null, subeventId: null },
      ]);
    });

    it('keys products by item, variation and sub-event', () => {
      expect(productKey(pos(1, null))).not.toBe(productKey(pos(1, 2)));
      expect(productKey({ itemId: 1, variationId: null, subeventId: 3 })).not.toBe(productKey(pos(1, null)));
    });
  });
});
