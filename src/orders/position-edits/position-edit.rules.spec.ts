import { UpdateOrderPositionDto } from './position-edit.dto';
import {
  answersChanged,
  bodyErrors,
  keptAnswers,
  patchedInfo,
  PositionInfo,
  REFUSED_FIELD,
} from './position-edit.rules';
import { ADDON_MESSAGES, addonProblem } from '../writing/sales.rules';

const body = (v: Partial<UpdateOrderPositionDto>) => Object.assign(new UpdateOrderPositionDto(), v);
const info: PositionInfo = {
  attendeeNameParts: { _legacy: 'Ann' },
  attendeeEmail: null,
  company: null,
  street: null,
  zipcode: null,
  city: null,
  country: 'US',
  state: null,
  validFrom: null,
  validUntil: null,
};

describe('position edit rules', () => {
  it('refuses product-level fields first, then both names, then a state without a state country', () => {
    expect(
      bodyErrors(body({ price: '1', attendee_name: 'A', attendee_name_parts: { a: 'b' } }), null),
    ).toEqual({
      price: [REFUSED_FIELD],
    });
    expect(bodyErrors(body({ attendee_name: 'A', attendee_name_parts: { a: 'b' } }), null)).toEqual({
      attendee_name: ['Do not specify attendee_name if you specified attendee_name_parts.'],
    });
    expect(bodyErrors(body({ state: 'CA' }), 'US')).toBeNull();
    expect(bodyErrors(body({ state: 'CA', country: 'de' }), 'US')).toEqual({
      state: ['States are not supported in country "DE".'],
    });
  });

  it('changes only what is sent; a plain name is legacy, null clears it', () => {
    expect(patchedInfo(info, body({ city: 'X', country: 'de' }))).toEqual({
      ...info,
      city: 'X',
      country: 'DE',
    });
    expect(patchedInfo(info, body({ attendee_name: 'Bo' })).attendeeNameParts).toEqual({ _legacy: 'Bo' });
    expect(patchedInfo(info, body({ attendee_name: null })).attendeeNameParts).toEqual({});
    expect(patchedInfo(info, body({ valid_from: '2030-01-01T00:00:00Z' })).validFrom).toEqual(
      new Date('2030-01-01T00:00:00Z'),
    );
  });

  it('compares answers by question, text and options; keeps non-empty, first per question', () => {
    const a = { questionId: 1, answer: 'x', optionIds: [2, 1] };
    expect(answersChanged([a], [{ ...a, optionIds: [1, 2] }])).toBe(false);
    expect(answersChanged([a], [{ ...a, answer: 'y' }])).toBe(true);
    expect(keptAnswers([a, { ...a, answer: 'z' }, { questionId: 2, answer: '', optionIds: [] }])).toEqual([
      a,
    ]);
  });
});

describe('add-on rules', () => {
  const rule = { categoryId: 7, categoryName: 'Extras', minCount: 1, maxCount: 2, multiAllowed: false };
  const addon = (itemId: number, categoryId: number | null = 7) => ({
    itemId,
    variationId: null,
    categoryId,
    name: `I${itemId}`,
  });
  it('checks category, max, min and repeated products in this order', () => {
    expect(addonProblem('Base', [addon(1, 8)], [rule])).toBe(ADDON_MESSAGES.notAnAddon('I1', 'Base'));
    expect(addonProblem('Base', [addon(1), addon(2), addon(3)], [rule])).toBe(
      ADDON_MESSAGES.maxCount(2, 'Extras', 'Base'),
    );
    expect(addonProblem('Base', [], [rule])).toBe(ADDON_MESSAGES.minCount(1, 'Extras', 'Base'));
    expect(addonProblem('Base', [addon(1), addon(1)], [rule])).toBe(ADDON_MESSAGES.noMulti('Extras', 'Base'));
    expect(addonProblem('Base', [addon(1), addon(1)], [{ ...rule, multiAllowed: true }])).toBeNull();
    expect(addonProblem('Base', [], [])).toBeNull();
  });
});
