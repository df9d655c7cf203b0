import {
  ADDON_TO_NEEDS_IDS,
  ADDON_TO_ORDER,
  budgetMessage,
  generateOrderCode,
  generateOrderSecret,
  generatePositionSecret,
  generatePseudonymizationId,
  hasValidCodeChars,
  ItemValidity,
  numberPositions,
  orderExpiry,
  POSITION_IDS_CONSECUTIVE,
  POSITION_IDS_FOR_ALL,
  ticketValidity,
} from './order-rules';

describe('order rules', () => {
  describe('codes and secrets', () => {
    it('generates 5-character codes of the allowed characters', () => {
      for (let i = 0; i < 200; i++) {
        const code = generateOrderCode();
        expect(code).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ1234567890]{5}$/);
        expect(hasValidCodeChars(code)).toBe(true);
      }
    });

    it('refuses I, O and lower case in codes', () => {
      expect(hasValidCodeChars('ABCDE1')).toBe(true);
      expect(hasValidCodeChars('ABCDI')).toBe(false);
      expect(hasValidCodeChars('ABCDO')).toBe(false);
      expect(hasValidCodeChars('abcde')).toBe(false);
      expect(hasValidCodeChars('ABC-E')).toBe(false);
    });

    it('generates secrets of the documented shapes', () => {
      expect(generateOrderSecret()).toMatch(/^[a-z0-9]{16}$/);
      expect(generatePositionSecret()).toMatch(/^[a-z0-9]{32}$/);
      expect(generatePseudonymizationId()).toMatch(/^[A-Z0-9]{10}$/);
      expect(new Set(Array.from({ length: 50 }, generatePositionSecret)).size).toBe(50);
    });
  });

  describe('numberPositions', () => {
    it('numbers positions 1..n when no ids are sent', () => {
      expect(numberPositions([{}, {}, { positionid: null }])).toEqual({ ids: [1, 2, 3], errors: null });
    });

    it('keeps sent consecutive ids and add-ons following their parent', () => {
      expect(
        numberPositions([
          { positionid: 1 },
          { positionid: 2, addon_to: 1 },
          { positionid: 3, addon_to: 1 },
          { positionid: 4 },
          { positionid: 5, addon_to: 4 },
        ]),
      ).toEqual({ ids: [1, 2, 3, 4, 5], errors: null });
    });

    it('wants ids for all positions or none', () => {
      expect(numberPositions([{ positionid: 1 }, {}, { positionid: 3 }])).toEqual({
        ids: null,
        errors: [{}, { positionid: [POSITION_IDS_FOR_ALL] }, {}],
      });
    });

    it('wants consecutive ids from 1', () => {
      expect(numberPositions([{ positionid: 2 }, { positionid: 3 }])).toEqual({
        ids: null,
        errors: [{ positionid: [POSITION_IDS_CONSECUTIVE] }, {}],
      });
      expect(numberPositions([{ positionid: 1 }, { positionid: 1 }])).toEqual({
        ids: null,
        errors: [{}, { positionid: [POSITION_IDS_CONSECUTIVE] }],
      });
    });

    it('refuses an add-on that does not follow its parent, or points at an add-on or itself', () => {
      expect(
        numberPositions([{ positionid: 1 }, { positionid: 2 }, { positionid: 3, addon_to: 1 }]).errors,
      ).toEqual([{}, {}, { addon_to: [ADDON_TO_ORDER] }]);
      expect(
        numberPositions([{ positionid: 1 }, { positionid: 2, addon_to: 1 }, { positionid: 3, addon_to: 2 }])
          .errors,
      ).toEqual([{}, {}, { addon_to: [ADDON_TO_ORDER] }]);
      expect(numberPositions([{ positionid: 1, addon_to: 1 }]).errors).toEqual([
        { addon_to: [ADDON_TO_ORDER] },
      ]);
    });

    it('needs ids when addon_to is used', () => {
      expect(numberPositions([{}, { addon_to: 1 }])).toEqual({
        ids: null,
        errors: [{ positionid: [ADDON_TO_NEEDS_IDS] }, { positionid: [ADDON_TO_NEEDS_IDS] }],
      });
    });
  });

  describe('orderExpiry', () => {
    it('is 14 days later at 23:59:59 in the event time zone', () => {
      const now = new Date('2030-03-01T22:30:00Z');
      expect(orderExpiry(now, 'Europe/Berlin').toISOString()).toBe('2030-03-15T22:59:59.000Z');
      expect(orderExpiry(now, 'UTC').toISOString()).toBe('2030-03-15T23:59:59.000Z');
      expect(orderExpiry(now, 'America/New_York').toISOString()).toBe('2030-03-16T03:59:59.000Z');
    });

    it('crosses a daylight-saving change keeping local 23:59:59', () => {
      expect(orderExpiry(new Date('2030-03-20T12:00:00Z'), 'Europe/Berlin').toISOString()).toBe(
        '2030-04-03T21:59:59.000Z',
      );
    });

    it('falls back to UTC for an unknown zone', () => {
      expect(orderExpiry(new Date('2030-03-01T10:00:00Z'), 'Nowhere/Land').toISOString()).toBe(
        '2030-03-15T23:59:59.000Z',
      );
    });
  });

  describe('ticketValidity', () => {
    const none: ItemValidity = {
      validityMode: null,
      validityFixedFrom: null,
      validityFixedUntil: null,
      validityDynamicDurationMinutes: null,
      validityDynamicDurationHours: null,
      validityDynamicDurationDays: null,
      validityDynamicDurationMonths: null,
    };
    const now = new Date('2030-01-31T10:00:00Z');

    it('has no limits without a validity mode', () => {
      expect(ticketValidity(none, now, 'UTC')).toEqual({ validFrom: null, validUntil: null });
    });

    it('uses the fixed window', () => {
      const from = new Date('2030-01-01T00:00:00Z');
      const until = new Date('2030-02-01T00:00:00Z');
      expect(
        ticketValidity(
          { ...none, validityMode: 'fixed', validityFixedFrom: from, validityFixedUntil: until },
          now,
          'UTC',
        ),
      ).toEqual({ validFrom: from, validUntil: until });
    });

    it('ends a day ticket at the end of today, a month ticket the day before the same date next month', () => {
      const day = ticketValidity(
        { ...none, validityMode: 'dynamic', validityDynamicDurationDays: 1 },
        now,
        'UTC',
      );
      expect([day.validFrom, day.validUntil?.toISOString()]).toEqual([now, '2030-01-31T23:59:59.000Z']);
      const week = ticketValidity(
        { ...none, validityMode: 'dynamic', validityDynamicDurationDays: 7 },
        now,
        'UTC',
      );
      expect(week.validUntil?.toISOString()).toBe('2030-02-06T23:59:59.000Z');
      const month = ticketValidity(
        { ...none, validityMode: 'dynamic', validityDynamicDurationMonths: 1 },
        new Date('2030-01-15T10:00:00Z'),
        'Europe/Berlin',
      );
      expect(month.validUntil?.toISOString()).toBe('2030-02-14T22:59:59.000Z');
    });

    it('adds hours and minutes from now', () => {
      const r = ticketValidity(
        {
          ...none,
          validityMode: 'dynamic',
          validityDynamicDurationHours: 2,
          validityDynamicDurationMinutes: 30,
        },
        now,
        'UTC',
      );
      expect(r.validUntil?.toISOString()).toBe('2030-01-31T12:30:00.000Z');
    });
  });

  it('words the budget message like pretix', () => {
    expect(budgetMessage('2.00', '4.00')).toBe(
      'The voucher has a remaining budget of 2.00, therefore a discount of 4.00 can not be given.',
    );
  });
});
