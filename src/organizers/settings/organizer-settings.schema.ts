import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { checkI18n } from '../../common/validation/fields';
import type { I18nString } from '../../common/values/i18n';

/**
 * The keys of `O/settings/` with their types, defaults, checks and labels: pretix's
 * `OrganizerSettingsSerializer.default_fields` with the defaults and serializer fields of pretix's settings
 * `DEFAULTS` (`pretix/base/settings.py`). Every value is optional and nullable on PATCH (null: back to the
 * default). Messages are DRF's and pretix's.
 */
export interface SettingSpec {
  /** Value when the organizer has not set the key (wire form). */
  default: unknown;
  /** Null when the value is valid, else the message. Never called with null. */
  check: (v: unknown) => string | null;
  /** Stored/wire form of a valid value (e.g. a plain string made an i18n object). */
  normalize?: (v: unknown) => unknown;
  schema: SchemaObject;
  label: string;
  help_text?: string | null;
}

const COLOR_MESSAGE = 'Please enter the hexadecimal code of a color, e.g. #990000.';
const URL = /^https?:\/\/[^\s/$.?#][^\s]*$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** pretix's `settings.LANGUAGES` codes (the `locales` choices). */
export const LANGUAGES: readonly string[] = [
  'en',
  'de',
  'de-informal',
  'ar',
  'eu',
  'ca',
  'zh-hans',
  'zh-hant',
  'cs',
  'da',
  'nl',
  'nl-informal',
  'et',
  'fi',
  'fr',
  'gl',
  'el',
  'he',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lv',
  'nb-no',
  'pl',
  'pt-pt',
  'pt-br',
  'ro',
  'ru',
  'sk',
  'sl',
  'es',
  'es-419',
  'sv',
  'tr',
  'uk',
];
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

const notValidChoice = (v: unknown): string =>
  `"${typeof v === 'string' ? v : JSON.stringify(v)}" is not a valid choice.`;

const bool = (d: boolean, label: string, help_text: string | null = null): SettingSpec => ({
  default: d,
  check: (v) => (typeof v === 'boolean' ? null : 'Must be a valid boolean.'),
  schema: { type: 'boolean', nullable: true },
  label,
  help_text,
});

const int = (
  d: number | null,
  label: string,
  min?: number,
  max?: number,
  help_text: string | null = null,
): SettingSpec => ({
  default: d,
  check: (v) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) return 'A valid integer is required.';
    if (min !== undefined && v < min) return `Ensure this value is greater than or equal to ${min}.`;
    if (max !== undefined && v > max) return `Ensure this value is less than or equal to ${max}.`;
    return null;
  },
  schema: {
    type: 'integer',
    format: 'int32',
    nullable: true,
    ...(min !== undefined ? { minimum: min } : {}),
    ...(max !== undefined ? { maximum: max } : {}),
  },
  label,
  help_text,
});

const choice = (
  d: string,
  values: readonly string[],
  label: string,
  help_text: string | null = null,
): SettingSpec => ({
  default: d,
  check: (v) => (typeof v === 'string' && values.includes(v) ? null : notValidChoice(v)),
  schema: { type: 'string', enum: [...values], nullable: true },
  label,
  help_text,
});

const currency = (label: string): SettingSpec => ({
  default: 'EUR',
  check: (v) => (typeof v === 'string' && CURRENCIES.has(v) ? null : notValidChoice(v)),
  schema: { type: 'string', nullable: true, description: 'ISO 4217 currency code.' },
  label,
});

const color = (d: string, label: string, help_text: string | null = null): SettingSpec => ({
  default: d,
  check: (v) =>
    typeof v !== 'string' ? 'Not a valid string.' : /^#[0-9a-fA-F]{6}$/.test(v) ? null : COLOR_MESSAGE,
  schema: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$', nullable: true },
  label,
  help_text,
});

const toI18nValue = (v: unknown): I18nString => (typeof v === 'string' ? { en: v } : (v as I18nString));

const i18n = (d: string, label: string, help_text: string | null = null): SettingSpec => ({
  default: { en: d },
  check: (v) => checkI18n(v),
  normalize: toI18nValue,
  schema: {
    type: 'object',
    additionalProperties: { type: 'string' },
    nullable: true,
    description: 'Localized text (language code to text; a plain string is stored as `en`).',
  },
  label,
  help_text,
});

const i18nUrl = (label: string, help_text: string | null = null): SettingSpec => ({
  default: null,
  check: (v) => {
    const err = checkI18n(v);
    if (err) return err;
    const texts = typeof v === 'string' ? [v] : Object.values(v as Record<string, string>);
    return texts.every((t) => t === '' || URL.test(t)) ? null : 'Enter a valid URL.';
  },
  normalize: toI18nValue,
  schema: {
    type: 'object',
    additionalProperties: { type: 'string', format: 'uri' },
    nullable: true,
    description: 'Localized URL (language code to URL; a plain string is stored as `en`).',
  },
  label,
  help_text,
});

/** Every key of `O/settings/`, in pretix's order. */
export const ORGANIZER_SETTINGS: Readonly<Record<string, SettingSpec>> = {
  customer_accounts: bool(
    false,
    'Allow customers to create accounts',
    'This will allow customers to sign up for an account on your ticket shop. This is a prerequisite for some advanced features like memberships.',
  ),
  customer_accounts_native: bool(
    true,
    'Allow customers to log in with email address and password',
    'If disabled, you will need to connect one or more single-sign-on providers.',
  ),
  customer_accounts_link_by_email: bool(
    false,
    'Match orders based on email address',
    'This will allow registered customers to access orders made with the same email address, even if the customer was not logged in during the purchase.',
  ),
  customer_accounts_require_login_for_order_access: bool(
    false,
    'Require login to access order confirmation pages',
  ),
  invoice_regenerate_allowed: bool(
    false,
    'Allow to update existing invoices',
    'By default, invoices can never again be changed once they are issued. In most countries, we recommend to leave this option turned off and always issue a new invoice if a change needs to be made.',
  ),
  contact_mail: {
    default: null,
    check: (v) =>
      typeof v === 'string' && EMAIL.test(v) && v.length <= 254 ? null : 'Enter a valid email address.',
    schema: { type: 'string', format: 'email', nullable: true },
    label: 'Contact address',
    help_text: "We'll show this publicly to allow attendees to contact you.",
  },
  imprint_url: {
    default: null,
    check: (v) => (typeof v === 'string' && URL.test(v) ? null : 'Enter a valid URL.'),
    schema: { type: 'string', format: 'uri', nullable: true },
    label: 'Imprint URL',
    help_text:
      'This should point e.g. to a part of your website that has your contact details and legal information.',
  },
  organizer_info_text: i18n(
    '',
    'Info text',
    'Not displayed anywhere by default, but if you want to, you can use this e.g. in ticket templates.',
  ),
  event_list_type: choice(
    'list',
    ['list', 'week', 'calendar'],
    'Default overview style',
    'If your event series has more than 50 dates in the future, only the month or week calendar can be used.',
  ),
  event_list_availability: bool(
    true,
    'Show availability in event overviews',
    'If checked, the list of events will show if events are sold out. This might make for longer page loading times if you have lots of events and the shown status might be out of date for up to two minutes.',
  ),
  organizer_homepage_text: i18n('', 'Homepage text', 'This will be displayed on the organizer homepage.'),
  organizer_link_back: bool(false, 'Link back to organizer overview on all event pages'),
  organizer_logo_image_large: bool(
    false,
    'Use header image in its full size',
    'We recommend to upload a picture at least 1170 pixels wide.',
  ),
  giftcard_length: int(
    16,
    'Length of gift card codes',
    undefined,
    undefined,
    'The system generates by default 16-character long gift card codes. However, if a different length is required, it can be set here.',
  ),
  giftcard_expiry_years: int(
    null,
    'Validity of gift card codes in years',
    undefined,
    undefined,
    'If you set a number here, gift cards will by default expire at the end of the year after this many years. If you keep it empty, gift cards do not have an explicit expiry date.',
  ),
  locales: {
    default: ['en'],
    check: (v) => {
      if (!Array.isArray(v))
        return `Expected a list of items but got type "${typeof v === 'string' ? 'str' : typeof v}".`;
      const bad = (v as unknown[]).find((x) => typeof x !== 'string' || !LANGUAGES.includes(x));
      return bad === undefined ? null : notValidChoice(bad);
    },
    normalize: (v) => [...new Set(v as string[])],
    schema: { type: 'array', items: { type: 'string', enum: [...LANGUAGES] }, nullable: true },
    label: 'Available languages',
  },
  region: {
    default: null,
    check: (v) => (typeof v === 'string' && /^[A-Z]{2}$/.test(v) && REGIONS.of(v) ? null : notValidChoice(v)),
    schema: { type: 'string', nullable: true, description: 'ISO 3166-1 alpha-2 country code.' },
    label: 'Region',
    help_text:
      'Will be used to determine date and time formatting as well as default country for customer addresses and phone numbers.',
  },
  event_team_provisioning: bool(
    true,
    'Allow creating a new team during event creation',
    'Users that do not have access to all events under this organizer, must select one of their teams to have access to the created event. This setting allows users to create an event-specified team on-the-fly, even when they do not have "Can change teams and permissions" permission.',
  ),
  primary_color: color('#8E44B3', 'Primary color'),
  theme_color_success: color(
    '#50a167',
    'Accent color for success',
    'We strongly suggest to use a shade of green.',
  ),
  theme_color_danger: color(
    '#c44f4f',
    'Accent color for errors',
    'We strongly suggest to use a shade of red.',
  ),
  theme_color_background: color('#f5f5f5', 'Page background color'),
  theme_round_borders: bool(true, 'Use round edges'),
  primary_font: choice('Open Sans', ['Open Sans'], 'Font', 'Only respected by modern browsers.'),
  organizer_logo_image_inherit: bool(
    false,
    'Use header image also for events without an individually uploaded logo',
  ),
  organizer_logo_image: {
    default: null,
    // No file upload endpoint: no file id can name an uploaded file (pretix `UploadedFileField`).
    check: () => 'The submitted file ID was not found.',
    schema: {
      type: 'string',
      format: 'uri',
      nullable: true,
      description: 'URL of the image; only `null` can be written.',
    },
    label: 'Header image',
  },
  privacy_url: i18nUrl(
    'Privacy Policy URL',
    'This should point e.g. to a part of your website that explains how you use data gathered in your ticket shop.',
  ),
  accessibility_url: i18nUrl('Accessibility information URL'),
  accessibility_title: i18n('Accessibility information', 'Accessibility information title'),
  accessibility_text: i18n('', 'Accessibility information text'),
  cookie_consent: bool(false, 'Enable cookie consent management features'),
  cookie_consent_dialog_title: i18n('Privacy settings', 'Dialog title'),
  cookie_consent_dialog_text: i18n(
    'By clicking "Accept all cookies", you agree to the storing of cookies and use of similar technologies on your device.',
    'Dialog text',
  ),
  cookie_consent_dialog_text_secondary: i18n(
    'We use cookies and similar technologies to gather data that allows us to improve this website and our offerings. If you do not agree, we will only use cookies if they are essential to providing the services this website offers.',
    'Secondary dialog text',
  ),
  cookie_consent_dialog_button_yes: i18n('Accept all cookies', '"Accept" button description'),
  cookie_consent_dialog_button_no: i18n('Required cookies only', '"Reject" button description'),
  reusable_media_active: bool(
    false,
    'Activate re-usable media',
    'The re-usable media feature allows you to connect tickets and gift cards with physical media such as wristbands or chip cards that may be re-used for different tickets or gift cards later.',
  ),
  reusable_media_type_barcode: bool(false, 'Active'),
  reusable_media_type_barcode_identifier_length: int(24, 'Length of barcodes', 12, 64),
  reusable_media_type_nfc_uid: bool(false, 'Active'),
  reusable_media_type_nfc_uid_autocreate_giftcard: bool(
    false,
    'Automatically create a new gift card if a previously unknown chip is seen',
  ),
  reusable_media_type_nfc_uid_autocreate_giftcard_currency: currency('Gift card currency'),
  reusable_media_type_nfc_mf0aes: bool(false, 'Active'),
  reusable_media_type_nfc_mf0aes_autocreate_giftcard: bool(
    false,
    'Automatically create a new gift card if a new chip is encoded',
  ),
  reusable_media_type_nfc_mf0aes_autocreate_giftcard_currency: currency('Gift card currency'),
  reusable_media_type_nfc_mf0aes_random_uid: bool(false, 'Use UID protection feature of NFC chip'),
};

/** The keys of {@link ORGANIZER_SETTINGS}, in order. */
export const ORGANIZER_SETTING_KEYS: readonly string[] = Object.keys(ORGANIZER_SETTINGS);
