import { randomInt } from 'crypto';

/** Characters of generated customer identifiers (pretix `Customer.assign_identifier`). */
const IDENTIFIER_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Length of generated identifiers (pretix `ENTROPY['customer_identifier']`). */
export const IDENTIFIER_LENGTH = 7;

/** A random identifier of `length` characters from {@link IDENTIFIER_CHARS}. */
export function randomIdentifier(length = IDENTIFIER_LENGTH): string {
  let out = '';
  for (let i = 0; i < length; i++) out += IDENTIFIER_CHARS[randomInt(IDENTIFIER_CHARS.length)];
  return out;
}

/** Languages a customer account may use (pretix `settings.LANGUAGES`, the ones this service knows). */
export const CUSTOMER_LOCALES = [
  'en',
  'de',
  'de-informal',
  'ar',
  'ca',
  'cs',
  'da',
  'el',
  'es',
  'fi',
  'fr',
  'it',
  'ja',
  'lv',
  'nl',
  'nl-informal',
  'pl',
  'pt-pt',
  'pt-br',
  'ro',
  'ru',
  'sv',
  'tr',
  'uk',
  'zh-hans',
] as const;

/** Name scheme added to name parts that come without `_scheme` (pretix's default organizer `name_scheme`). */
export const DEFAULT_NAME_SCHEME = 'full';

/** Order of the known name parts when a name is built from them (given name first, as pretix's schemes do). */
const NAME_ORDER = [
  'salutation',
  'title',
  'given_name',
  'middle_name',
  'calling_name',
  'family_name',
  'full_name',
  'latin_transcription',
];

/**
 * Name parts as stored: `{}` for empty parts, else the parts with `_scheme` added when missing (pretix
 * `CustomerSerializer.validate`).
 */
export function normalizedNameParts(
  parts: Record<string, string> | null | undefined,
): Record<string, string> {
  if (!parts || Object.keys(parts).length === 0) return {};
  return '_scheme' in parts ? { ...parts } : { ...parts, _scheme: DEFAULT_NAME_SCHEME };
}

/** The full name of name parts (`_legacy` as is, else the parts joined in scheme order); "" when empty. */
export function nameOf(parts: Record<string, string> | null | undefined): string {
  if (!parts) return '';
  if (parts._legacy) return parts._legacy;
  const keys = Object.keys(parts).filter((k) => k !== '_scheme' && parts[k]);
  keys.sort((a, b) => rank(a) - rank(b));
  return keys
    .map((k) => parts[k])
    .join(' ')
    .trim();
}

function rank(key: string): number {
  const i = NAME_ORDER.indexOf(key);
  return i === -1 ? 99 : i;
}

/**
 * pretix's registration e-mail (`mail_subject_customer_registration` / `mail_text_customer_registration`
 * defaults), plain text. `url` is the activation link of the shop.
 */
export function registrationMail(
  organizerName: string,
  name: string,
  url: string,
): { subject: string; body: string } {
  return {
    subject: `Activate your account at ${organizerName}`,
    body: [
      `Hello ${name},`,
      '',
      `thank you for signing up for an account at ${organizerName}!`,
      '',
      'To activate your account and set a password, please click here:',
      '',
      url,
      '',
      'This link is valid for one day.',
      '',
      'If you did not sign up yourself, please ignore this email.',
      '',
      'Best regards,',
      '',
      `Your ${organizerName} team`,
    ].join('\n'),
  };
}
