import { isISO31661Alpha2 } from 'class-validator';
import {
  IsBool,
  IsJsonObject,
  IsStr,
  Nullable,
  Optional,
  rule,
} from '../../common/validation/fields';
import { TRANSMISSION_TYPES, transmissionInfoError } from './invoice-transmission.rules';

/** An ISO 3166-1 alpha-2 country code (any case) or `""` (compat §4.4: `Invalid country code.`). */
export function IsCountry(): PropertyDecorator {
  return rule('isCountry', (v) => {
    if (v === undefined || v === null || v === '') return null;
    if (typeof v !== 'string') return 'Not a valid string.';
    return /^[A-Za-z]{2}$/.test(v) && isISO31661Alpha2(v.toUpperCase()) ? null : 'Invalid country code.';
  });
}

/**
 * The invoice address of an order (compat §4.4 `invoice_address`), on create and PATCH. Every field is optional;
 * `name` (stored as `{"_legacy": name}`) and `name_parts` exclude each other. `country` is an ISO 3166-1
 * alpha-2 code.
 */
export class InvoiceAddressInputDto {
  @Optional()
  @IsBool()
  is_business?: boolean;

  @Optional()
  @IsStr({ max: 255 })
  company?: string;

  @Optional()
  @IsStr({ max: 255 })
  name?: string;

  @Optional()
  @IsJsonObject()
  name_parts?: Record<string, string>;

  @Optional()
  @IsStr()
  street?: string;

  @Optional()
  @IsStr({ max: 30 })
  zipcode?: string;

  @Optional()
  @IsStr({ max: 255 })
  city?: string;

  @Optional()
  @IsCountry()
  country?: string;

  @Optional()
  @IsStr({ max: 255 })
  state?: string;

  @Optional()
  @IsStr({ max: 255 })
  vat_id?: string;

  @Optional()
  @IsBool()
  vat_id_validated?: boolean;

  @Nullable()
  @IsStr({ max: 255 })
  custom_field?: string | null;

  @Optional()
  @IsStr({ max: 255 })
  internal_reference?: string;

  /** How invoices reach the customer (pretix 2025.6): `email`, the one type this service has. Default `email`. */
  @Optional()
  @IsStr({ max: 255 })
  @rule('transmissionType', (v) =>
    typeof v !== 'string' || v === '' || (TRANSMISSION_TYPES as readonly string[]).includes(v)
      ? null
      : 'Unknown transmission type.',
  )
  transmission_type?: string;

  /**
   * Type-specific transmission details; for `email`: `transmission_email_other` (boolean) and
   * `transmission_email_address` (an address the invoice goes to instead of the order's e-mail).
   */
  @Optional()
  @IsJsonObject()
  @rule('transmissionInfo', (v) => transmissionInfoError(v))
  transmission_info?: Record<string, unknown>;
}
