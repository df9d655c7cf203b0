import { QueryFailedError } from 'typeorm';
import {
  BlockingState,
  CODE_ALPHABET,
  foreignKeyViolation,
  generateVoucherCode,
  needsQuotaCheck,
  placesHeld,
  VoucherTarget,
} from './voucher-rules';

describe('voucher rules (compat §3.23)', () => {
  const now = new Date('2030-06-01T12:00:00Z');
  const past = new Date('2030-05-01T00:00:00Z');
  const future = new Date('2030-07-01T00:00:00Z');

  const voucher = (over: Partial<BlockingState & VoucherTarget> = {}): BlockingState & VoucherTarget => ({
    blockQuota: true,
    validUntil: null,
    maxUsages: 2,
    redeemed: 0,
    itemId: 1,
    variationId: null,
    quotaId: null,
    subeventId: null,
    ...over,
  });

  describe('generateVoucherCode', () => {
    it('makes 16 characters of the unambiguous alphabet', () => {
      for (let i = 0; i < 200; i++) {
        const code = generateVoucherCode();
        expect(code).toHaveLength(16);
        expect([...code].every((c) => CODE_ALPHABET.includes(c))).toBe(true);
      }
      expect(CODE_ALPHABET).not.toMatch(/[01IO]/);
    });

    it('does not repeat itself', () => {
      const codes = new Set(Array.from({ length: 1000 }, generateVoucherCode));
      expect(codes.size).toBe(1000);
    });
  });

  describe('placesHeld', () => {
    it.each([
      [{}, 2],
      [{ redeemed: 1 }, 1],
      [{ redeemed: 2 }, 0],
      [{ redeemed: 3 }, 0],
      [{ blockQuota: false }, 0],
      [{ validUntil: past }, 0],
      [{ validUntil: future }, 2],
      [{ validUntil: now }, 2],
    ])('%j holds %i places', (over, places) => {
      expect(placesHeld(voucher(over), now)).toBe(places);
    });
  });

  describe('needsQuotaCheck', () => {
    it.each([
      ['a new blocking voucher', null, {}, true],
      ['a new non-blocking voucher', null, { blockQuota: false }, false],
      ['a new expired blocking voucher', null, { validUntil: past }, false],
      ['switching to blocking', { blockQuota: false }, {}, true],
      ['switching off blocking', {}, { blockQuota: false }, false],
      ['an unchanged blocking voucher', {}, {}, false],
      ['a comment-only edit of a blocking voucher', {}, { maxUsages: 2 }, false],
      ['lowering max_usages', { maxUsages: 3 }, { maxUsages: 2 }, false],
      ['raising max_usages', {}, { maxUsages: 3 }, true],
      ['changing the item', {}, { itemId: 2 }, true],
      ['changing the variation', { variationId: 5 }, { variationId: 6 }, true],
      ['moving to a quota', {}, { itemId: null, quotaId: 9 }, true],
      ['changing the sub-event', {}, { subeventId: 4 }, true],
      ['reactivating an expired voucher', { validUntil: past }, { validUntil: future }, true],
      ['editing an expired voucher', { validUntil: past }, { validUntil: past, itemId: 2 }, false],
      ['expiring a blocking voucher', {}, { validUntil: past }, false],
      ['raising max_usages of a used-up voucher', { redeemed: 2 }, { redeemed: 2, maxUsages: 3 }, true],
    ] as const)('%s → %s', (_name, before, after, expected) => {
      expect(needsQuotaCheck(before === null ? null : voucher(before), voucher(after), now)).toBe(expected);
    });
  });

  describe('foreignKeyViolation', () => {
    const failure = (driverError: object) =>
      new QueryFailedError('INSERT', [], Object.assign(new Error('fk'), driverError));

    it('names the wire field and id of a vanished reference', () => {
      expect(
        foreignKeyViolation(
          failure({ code: '23503', detail: 'Key (item_id)=(12) is not present in table "item".' }),
        ),
      ).toEqual({ field: 'item', id: '12' });
      expect(
        foreignKeyViolation(
          failure({ code: '23503', detail: 'Key (quota_id)=(3) is not present in table "quota".' }),
        ),
      ).toEqual({ field: 'quota', id: '3' });
    });

    it('ignores other errors and other columns', () => {
      expect(foreignKeyViolation(new Error('x'))).toBeNull();
      expect(foreignKeyViolation(failure({ code: '23505', detail: 'Key (item_id)=(1)' }))).toBeNull();
      expect(
        foreignKeyViolation(
          failure({ code: '23503', detail: 'Key (event_id)=(1) is not present in table "event".' }),
        ),
      ).toBeNull();
    });
  });
});
