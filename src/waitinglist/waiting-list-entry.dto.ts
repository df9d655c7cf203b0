import { applyDecorators } from '@nestjs/common';
import { ApiProperty, PartialType } from '@nestjs/swagger';
import { ApiInt } from '../common/http/api-schemas';
import {
  IsEmailAddress,
  IsInteger,
  IsJsonObject,
  Nullable,
  Optional,
  Required,
  rule,
} from '../common/validation/fields';

/**
 * A primary-key reference (DRF `PrimaryKeyRelatedField`): an integer, else
 * `Incorrect type. Expected pk value, received str.` (compat §1.5). Existence is checked by the service.
 */
function IsPk(): PropertyDecorator {
  const check = rule('isPk', (v) => {
    if (v === undefined || v === null) return null;
    if (typeof v === 'number' && Number.isInteger(v)) return null;
    const type =
      typeof v === 'string' ? 'str' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'dict' : typeof v;
    return `Incorrect type. Expected pk value, received ${type}.`;
  });
  return applyDecorators(check, ApiInt());
}

/** A phone number in international form (`+4930123456`), as pretix's `PhoneNumberField` stores it. */
function IsPhone(): PropertyDecorator {
  return applyDecorators(
    rule('isPhone', (v) =>
      v === undefined || v === null || (typeof v === 'string' && /^\+[1-9][0-9 ()./-]{5,30}$/.test(v))
        ? null
        : 'Enter a valid phone number.',
    ),
    ApiProperty({ type: 'string', nullable: true, example: '+4930123456' }),
  );
}

/** A language code (`en`, `de`, `de-informal`, `pt-br`). */
function IsLocale(): PropertyDecorator {
  return applyDecorators(
    rule('isLocale', (v) =>
      v === undefined || v === null || (typeof v === 'string' && /^[a-z]{2,3}(-[a-z0-9]{2,16})*$/i.test(v))
        ? null
        : `"${typeof v === 'string' ? v : JSON.stringify(v)}" is not a valid choice.`,
    ),
    ApiProperty({ type: 'string', nullable: true, maxLength: 190, example: 'en' }),
  );
}

/**
 * Body of `POST E/waitinglistentries/` and `PUT E/waitinglistentries/{id}/` (pretix `WaitingListSerializer`).
 * `id`, `created`, `voucher` and `name` are read-only and ignored.
 */
export class CreateWaitingListEntryDto {
  @Required()
  @IsEmailAddress({ max: 254 })
  email!: string;

  /** Product id of this event. */
  @Required()
  @IsPk()
  item!: number;

  /** Variation of `item`; required when the item has variations. */
  @Nullable()
  @IsPk()
  variation?: number | null;

  /** Date of the series; required for a series, null otherwise. */
  @Nullable()
  @IsPk()
  subevent?: number | null;

  /** Name parts (`{"full_name": "…"}`); `_scheme` is added when missing. Default `{}`. */
  @Optional()
  @IsJsonObject()
  name_parts?: Record<string, string>;

  @Nullable()
  @IsPhone()
  phone?: string | null;

  /** Language of the mails; null or omitted means the default `en`. */
  @Nullable()
  @IsLocale()
  locale?: string | null;

  /** Higher first in the automatic assignment; default 0. */
  @Optional()
  @IsInteger()
  priority?: number;
}

/** Body of `PATCH E/waitinglistentries/{id}/`: every field optional. */
export class UpdateWaitingListEntryDto extends PartialType(CreateWaitingListEntryDto, {
  skipNullProperties: false,
}) {}
