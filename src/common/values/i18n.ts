/**
 * Multi-lingual strings: a JSON object mapping a language code to a text (spec "Conventions" 6). A plain string
 * is accepted on input and stored under the default language.
 */
export type I18nString = Record<string, string>;

export const DEFAULT_LOCALE = 'en';

/** Input (validated by `@IsI18nString`) to the stored object form. */
export function toI18n(value: string | I18nString): I18nString {
  return typeof value === 'string' ? { [DEFAULT_LOCALE]: value } : { ...value };
}

/** Same as {@link toI18n} but keeps null. */
export function toI18nOrNull(value: string | I18nString | null | undefined): I18nString | null {
  return value === null || value === undefined ? null : toI18n(value);
}

/** A readable single text of a multi-lingual string (default language first), for messages. */
export function i18nText(value: I18nString | null | undefined): string {
  if (!value) return '';
  return value[DEFAULT_LOCALE] ?? Object.values(value)[0] ?? '';
}
