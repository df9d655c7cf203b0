/**
 * The invoice settings of an event (`E/settings/`; README "Invoices"): keys, defaults and what they decide.
 * Values are strings, as pretix's settings API shows them.
 */

/** When invoices are made (pretix `invoice_generate`). */
export const INVOICE_GENERATE = ['False', 'admin', 'user', 'paid', 'True'] as const;
export type InvoiceGenerate = (typeof INVOICE_GENERATE)[number];

/** Every key of `E/settings/` with its default. */
export const SETTING_DEFAULTS = {
  invoice_address_from_name: '',
  invoice_address_from: '',
  invoice_address_from_zipcode: '',
  invoice_address_from_city: '',
  invoice_address_from_state: '',
  invoice_address_from_country: '',
  invoice_address_from_tax_id: '',
  invoice_address_from_vat_id: '',
  invoice_numbers_prefix: '',
  invoice_generate: 'admin' as InvoiceGenerate,
  invoice_introductory_text: '',
  invoice_additional_text: '',
  invoice_footer_text: '',
  locale: 'en',
};

export type SettingKey = keyof typeof SETTING_DEFAULTS;
export type EventSettings = { [K in SettingKey]: (typeof SETTING_DEFAULTS)[K] };
export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as SettingKey[];

/** The stored values over the defaults (unknown stored keys are dropped). */
export function effectiveSettings(stored: Record<string, string> | null | undefined): EventSettings {
  const out = { ...SETTING_DEFAULTS } as Record<SettingKey, string>;
  for (const key of SETTING_KEYS) {
    const v = stored?.[key];
    if (typeof v === 'string') out[key] = v;
  }
  return out as EventSettings;
}

/** The invoice number prefix: the setting, or the event slug in capitals with a dash (`DEMO-`). */
export function numberPrefix(settings: EventSettings, eventSlug: string): string {
  return settings.invoice_numbers_prefix !== ''
    ? settings.invoice_numbers_prefix
    : `${eventSlug.toUpperCase()}-`;
}

/** `prefix` + the number zero-padded to five digits (pretix's format), e.g. `DEMO-00001`. */
export function formatNumber(prefix: string, no: number): string {
  return `${prefix}${String(no).padStart(5, '0')}`;
}

/** An order transition that may create an invoice automatically. */
export type InvoiceTrigger = 'placed' | 'paid';

/**
 * Whether the transition creates an invoice automatically: `True` on placement (and on payment when the order
 * has none yet), `paid` on payment (a paid placement included); `admin`, `user`, `False` never.
 */
export function generatesOn(setting: InvoiceGenerate, trigger: InvoiceTrigger, paid: boolean): boolean {
  if (setting === 'True') return true;
  if (setting === 'paid') return trigger === 'paid' || paid;
  return false;
}
