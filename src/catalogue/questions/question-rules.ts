import { randomString } from '../../common/values/random';

/**
 * Pure rules of questions and their options (compat §3.15, §3.16), kept free of the database so that unit
 * specs can cover them.
 */

/**
 * Question types (spec "Question"): `N` number, `S` one-line string, `T` multi-line string, `B` boolean, `C`
 * choice, `M` multiple choice, `F` file upload, `D` date, `H` time, `W` date and time, `CC` country code, `TEL`
 * telephone number.
 */
export const QUESTION_TYPES = ['N', 'S', 'T', 'B', 'C', 'M', 'F', 'D', 'H', 'W', 'CC', 'TEL'] as const;

/** Types another question may depend on: boolean and the two choice types. */
export const DEPENDENCY_TYPES: readonly string[] = ['B', 'C', 'M'];

/**
 * Types that cannot be asked during check-in: none in pretix 2026.5 (`ASK_DURING_CHECKIN_UNSUPPORTED = []`; a file
 * question takes a `file:<uuid>` upload in the redeem's `answers`).
 */
export const CHECKIN_UNSUPPORTED_TYPES: readonly string[] = [];

/** The values a boolean dependency accepts, each on its own (`['True']` or `['False']`). */
export const BOOLEAN_DEPENDENCY_VALUES: readonly string[] = ['True', 'False'];

const IDENTIFIER_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A random 8-character identifier of `A-Z0-9` (questions and options without a client-given identifier). */
export function randomIdentifier(): string {
  return randomString(IDENTIFIER_ALPHABET, 8);
}

/**
 * The effective `dependency_values` of a write. The legacy single `dependency_value` wins when it is sent
 * non-null (`""` means no value, as in pretix); a null legacy value is ignored. Duplicates are dropped, order kept.
 */
export function effectiveDependencyValues(
  values: readonly string[] | undefined,
  legacy: string | null | undefined,
): string[] | undefined {
  if (legacy !== undefined && legacy !== null) return legacy === '' ? [] : [legacy];
  return values === undefined ? undefined : [...new Set(values)];
}

/** The legacy output `dependency_value`: the first of `dependency_values`, or null. */
export function legacyDependencyValue(values: readonly string[]): string | null {
  return values.length > 0 ? values[0] : null;
}

/**
 * Checks `dependency_values` against the question depended on.
 * - boolean (`B`): exactly `['True']` or `['False']`;
 * - choice (`C`, `M`): one or more identifiers of that question's options.
 * @returns the error message, or null when the values fit
 */
export function dependencyValuesError(
  dependencyType: string,
  values: readonly string[],
  optionIdentifiers: readonly string[],
): string | null {
  if (values.length === 0) return 'At least one value is required when a dependency question is set.';
  if (dependencyType === 'B') {
    return values.length === 1 && BOOLEAN_DEPENDENCY_VALUES.includes(values[0])
      ? null
      : 'A dependency on a boolean question needs exactly one of the values "True" or "False".';
  }
  const known = new Set(optionIdentifiers);
  const unknown = values.find((v) => !known.has(v));
  return unknown === undefined
    ? null
    : `"${unknown}" is not the identifier of an option of the dependency question.`;
}

/**
 * The type a question that others depend on may take: a boolean stays boolean, a choice question stays a
 * (single or multiple) choice question, so that the dependents' values keep their meaning.
 * @returns the error message for `type`, or null
 */
export function dependedOnTypeError(oldType: string, newType: string): string | null {
  if (oldType === newType) return null;
  if (oldType === 'B') return 'Other questions depend on this question, so it must stay a boolean question.';
  if ((oldType === 'C' || oldType === 'M') && newType !== 'C' && newType !== 'M') {
    return 'Other questions depend on this question, so it must stay a choice question.';
  }
  return null;
}
