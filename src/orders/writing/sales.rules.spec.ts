import {
  attendeeNameParts,
  itemProblem,
  nameSentTwice,
  placesPerQuota,
  SALES_MESSAGES,
  throwPositions,
} from './sales.rules';
import { ValidationFailed } from '../../common/errors';

describe('sales rules shared by orders and carts', () => {
  describe('itemProblem', () => {
    const item = { id: 3, eventId: 1, active: true };
    const organizer = (eventId: number) => eventId === 1 || eventId === 2;

    it('reports an unknown item and one of another organizer alike, then other event, then inactive', () => {
      expect(itemProblem(undefined, 3, 1, organizer)).toBe('Invalid pk "3" - object does not exist.');
      expect(itemProblem({ ...item, eventId: 9 }, 3, 1, organizer)).toBe(
        'Invalid pk "3" - object does not exist.',
      );
      expect(itemProblem({ ...item, eventId: 2 }, 3, 1, organizer)).toBe(SALES_MESSAGES.itemOtherEvent);
      expect(itemProblem({ ...item, active: false }, 3, 1, organizer)).toBe(SALES_MESSAGES.itemInactive);
      expect(itemProblem(item, 3, 1, organizer)).toBeNull();
    });
  });

  it('stores name parts when sent, else the legacy name, else nothing', () => {
    expect(attendeeNameParts('Ann', undefined)).toEqual({ _legacy: 'Ann' });
    expect(attendeeNameParts(null, { given_name: 'Ann' })).toEqual({ given_name: 'Ann' });
    expect(attendeeNameParts(undefined, {})).toEqual({});
    expect(nameSentTwice('Ann', { given_name: 'Ann' })).toBe(true);
    expect(nameSentTwice('Ann', {})).toBe(false);
  });

  it('sums one place per entry on each of its quotas', () => {
    expect([...placesPerQuota([[1, 2], [2], []])]).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('throws aligned position errors only when there is one', () => {
    expect(() => throwPositions([{}, {}])).not.toThrow();
    try {
      throwPositions([{}, { item: ['x'] }]);
      throw new Error('not thrown');
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationFailed);
      expect((err as ValidationFailed).errors).toEqual({ positions: [{}, { item: ['x'] }] });
    }
  });
});
