import {
  dependedOnTypeError,
  dependencyValuesError,
  effectiveDependencyValues,
  legacyDependencyValue,
  randomIdentifier,
} from './question-rules';

describe('question rules (compat §3.15, §3.16)', () => {
  describe('randomIdentifier', () => {
    it('gives 8 characters of A-Z0-9, different each time', () => {
      const seen = new Set(Array.from({ length: 200 }, () => randomIdentifier()));
      for (const id of seen) expect(id).toMatch(/^[A-Z0-9]{8}$/);
      expect(seen.size).toBeGreaterThan(195);
    });
  });

  describe('effectiveDependencyValues', () => {
    it('lets a non-null legacy value win, an empty legacy value mean no value', () => {
      expect(effectiveDependencyValues(['True'], 'False')).toEqual(['False']);
      expect(effectiveDependencyValues(undefined, 'A')).toEqual(['A']);
      expect(effectiveDependencyValues(['A'], '')).toEqual([]);
    });

    it('ignores a null or absent legacy value and drops duplicates, keeping order', () => {
      expect(effectiveDependencyValues(['B', 'A', 'B'], null)).toEqual(['B', 'A']);
      expect(effectiveDependencyValues(['A'], undefined)).toEqual(['A']);
      expect(effectiveDependencyValues(undefined, null)).toBeUndefined();
    });
  });

  it('legacyDependencyValue is the first value or null', () => {
    expect(legacyDependencyValue(['X', 'Y'])).toBe('X');
    expect(legacyDependencyValue([])).toBeNull();
  });

  describe('dependencyValuesError', () => {
    const BOOL = 'A dependency on a boolean question needs exactly one of the values "True" or "False".';

    it('accepts ["True"] and ["False"] for a boolean dependency, nothing else', () => {
      expect(dependencyValuesError('B', ['True'], [])).toBeNull();
      expect(dependencyValuesError('B', ['False'], [])).toBeNull();
      expect(dependencyValuesError('B', ['1'], [])).toBe(BOOL);
      expect(dependencyValuesError('B', ['True', 'False'], [])).toBe(BOOL);
      expect(dependencyValuesError('B', ['true'], ['true'])).toBe(BOOL);
    });

    it('accepts option identifiers for choice dependencies and names the first unknown value', () => {
      expect(dependencyValuesError('C', ['A', 'B'], ['A', 'B', 'C'])).toBeNull();
      expect(dependencyValuesError('M', ['A'], ['A'])).toBeNull();
      expect(dependencyValuesError('C', ['A', 'X', 'Y'], ['A'])).toBe(
        '"X" is not the identifier of an option of the dependency question.',
      );
      expect(dependencyValuesError('M', ['True'], [])).toBe(
        '"True" is not the identifier of an option of the dependency question.',
      );
    });

    it('requires at least one value', () => {
      for (const type of ['B', 'C', 'M']) {
        expect(dependencyValuesError(type, [], ['A'])).toBe(
          'At least one value is required when a dependency question is set.',
        );
      }
    });
  });

  describe('dependedOnTypeError', () => {
    it('keeps a boolean boolean and a choice question a choice question', () => {
      expect(dependedOnTypeError('B', 'B')).toBeNull();
      expect(dependedOnTypeError('C', 'M')).toBeNull();
      expect(dependedOnTypeError('M', 'C')).toBeNull();
      expect(dependedOnTypeError('B', 'C')).toBe(
        'Other questions depend on this question, so it must stay a boolean question.',
      );
      expect(dependedOnTypeError('C', 'B')).toBe(
        'Other questions depend on this question, so it must stay a choice question.',
      );
      expect(dependedOnTypeError('M', 'S')).toBe(
        'Other questions depend on this question, so it must stay a choice question.',
      );
    });
  });
});
