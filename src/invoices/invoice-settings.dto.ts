import { IsBool, IsChoice, IsInteger, IsStr, Optional } from '../common/validation/fields';
import { IsCountry } from '../orders/create/invoice-address.dto';
import { INVOICE_GENERATE, type InvoiceGenerate } from './invoice-settings.rules';

/**
 * Body of `PATCH E/settings/` and the answer of `GET E/settings/` (README "Invoices"): every key optional on
 * PATCH; only the keys sent change.
 */
export class EventSettingsDto {
  /** Sender: company or person name. */
  @Optional()
  @IsStr({ max: 190 })
  invoice_address_from_name?: string;

  /** Sender: street address (may have several lines). */
  @Optional()
  @IsStr({ max: 1000 })
  invoice_address_from?: string;

  @Optional()
  @IsStr({ max: 30 })
  invoice_address_from_zipcode?: string;

  @Optional()
  @IsStr({ max: 190 })
  invoice_address_from_city?: string;

  /** State or province of the sender (only used in some countries). */
  @Optional()
  @IsStr({ max: 190 })
  invoice_address_from_state?: string;

  /** ISO 3166-1 alpha-2 code or `""`. */
  @Optional()
  @IsCountry()
  invoice_address_from_country?: string;

  @Optional()
  @IsStr({ max: 190 })
  invoice_address_from_tax_id?: string;

  @Optional()
  @IsStr({ max: 190 })
  invoice_address_from_vat_id?: string;

  /** Prefix of new invoice numbers; empty: the event slug in capitals and a dash (`DEMO-`). */
  @Optional()
  @IsStr({
    max: 150,
    pattern: /^[A-Za-z0-9._-]*$/,
    patternMessage: 'Only letters, digits and . _ - are allowed.',
  })
  invoice_numbers_prefix?: string;

  /** `False` (never), `admin` (only on request; default), `user`, `paid` (on payment), `True` (on placement). */
  @Optional()
  @IsChoice(INVOICE_GENERATE)
  invoice_generate?: InvoiceGenerate;

  @Optional()
  @IsStr({ max: 5000 })
  invoice_introductory_text?: string;

  @Optional()
  @IsStr({ max: 5000 })
  invoice_additional_text?: string;

  @Optional()
  @IsStr({ max: 5000 })
  invoice_footer_text?: string;

  /** Language of new invoices, e.g. `en`, `de`. */
  @Optional()
  @IsStr({
    blank: false,
    max: 50,
    pattern: /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/,
    patternMessage: 'Enter a valid language code.',
  })
  locale?: string;

  /** Whether the shop offers a waiting list for sold-out products (pretix default false). */
  @Optional()
  @IsBool()
  waiting_list_enabled?: boolean;

  /** Whether vouchers are sent to waiting list entries automatically when places free up (default true). */
  @Optional()
  @IsBool()
  waiting_list_auto?: boolean;

  /** Hours a waiting list voucher stays valid (default 48). */
  @Optional()
  @IsInteger({ min: 6, max: 24 * 7 })
  waiting_list_hours?: number;

  /** Open entries one e-mail address may have per product (default 1). */
  @Optional()
  @IsInteger({ min: 1 })
  waiting_list_limit_per_user?: number;
}
