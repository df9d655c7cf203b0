import { ApiProperty, OmitType, PartialType } from '@nestjs/swagger';
import {
  IsBool,
  IsChoice,
  IsEmailAddress,
  IsStr,
  Nullable,
  Optional,
  rule,
} from '../common/validation/fields';
import { CUSTOMER_LOCALES } from './customer.rules';

/** pretix's message for name parts that are not a JSON object (`CustomerSerializer.validate`). */
export const INVALID_NAME_PARTS = 'Invalid data type';

/** Name parts: a JSON object of strings (`given_name`, `family_name`, `_scheme`, ...). */
const IsNameParts = () =>
  rule('isNameParts', (v) => {
    if (v === undefined || v === null) return null;
    if (typeof v !== 'object' || Array.isArray(v)) return INVALID_NAME_PARTS;
    for (const part of Object.values(v as Record<string, unknown>)) {
      if (typeof part !== 'string') return 'Every name part must be a string.';
      if (part.length > 255) return 'Ensure every name part has no more than 255 characters.';
    }
    return null;
  });

/** A phone number: an optional `+`, then digits, spaces and `-()/.` (at least 3 digits); at most 64 characters. */
const IsPhone = () =>
  rule('isPhone', (v) => {
    if (v === undefined || v === null || v === '') return null;
    if (
      typeof v !== 'string' ||
      v.length > 64 ||
      !/^\+?[0-9 ()./-]+$/.test(v) ||
      v.replace(/\D/g, '').length < 3
    )
      return 'Enter a valid phone number.';
    return null;
  });

/**
 * Body of `PUT O/customers/{identifier}/` (pretix `CustomerSerializer`). `identifier`, `name`, `last_login`,
 * `date_joined` and `last_modified` are read-only and ignored.
 */
export class ReplaceCustomerDto {
  /** Identifier in an external system (null by default). */
  @Nullable()
  @IsStr({ max: 255 })
  external_identifier?: string | null;

  /** Unique per organizer (case-insensitive); stored lower-cased. */
  @Nullable()
  @IsEmailAddress({ max: 190 })
  email?: string | null;

  @Nullable()
  @IsPhone()
  @ApiProperty({ type: 'string', maxLength: 64 })
  phone?: string | null;

  /** Name parts; `_scheme` is added when missing. Default `{}`. */
  @Optional()
  @IsNameParts()
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  name_parts?: Record<string, string>;

  /** Default true. */
  @Optional()
  @IsBool()
  is_active?: boolean;

  /** Default true. */
  @Optional()
  @IsBool()
  is_verified?: boolean;

  /** Default `en`. */
  @Optional()
  @IsChoice(CUSTOMER_LOCALES)
  locale?: string;

  @Nullable()
  @IsStr()
  notes?: string | null;
}

/** Body of `PATCH O/customers/{identifier}/`: every field optional. */
export class UpdateCustomerDto extends PartialType(ReplaceCustomerDto, { skipNullProperties: false }) {}

/**
 * Body of `POST O/customers/` (pretix `CustomerCreateSerializer`): the customer fields plus `send_email` (mail
 * the registration e-mail with the activation link; default false) and `password` (stored as a bcrypt hash;
 * default none, i.e. no usable password).
 */
export class CreateCustomerDto extends OmitType(ReplaceCustomerDto, [] as const) {
  @Nullable()
  @IsBool()
  send_email?: boolean | null;

  @Nullable()
  @IsStr({ max: 128 })
  password?: string | null;
}
