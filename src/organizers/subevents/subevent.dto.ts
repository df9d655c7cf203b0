import { OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ValidateNested, ValidationArguments } from 'class-validator';
import {
  IsBool,
  IsDateTimeString,
  IsFloatNumber,
  IsI18nString,
  IsInteger,
  IsJsonObject,
  IsMoney,
  IsStr,
  MaxItems,
  Nullable,
  Optional,
  Required,
  rule,
} from '../../common/validation/fields';
import type { I18nString } from '../../common/values/i18n';
import { LIMITS } from '../../config/limits';

/** A list whose entries `@ValidateNested` checks; null is refused by `@Optional()`. */
function IsList(): PropertyDecorator {
  return rule('isList', (v) =>
    v === undefined || v === null || Array.isArray(v)
      ? null
      : `Expected a list of items but got type "${typeof v === 'string' ? 'str' : typeof v === 'object' ? 'dict' : typeof v}".`,
  );
}

/** Each entry validated against `dto`; a non-object entry answers `Invalid data. Expected a dictionary…`. */
function EachEntry(dto: () => new () => object): PropertyDecorator {
  return (target, key) => {
    ValidateNested({
      each: true,
      message: (args: ValidationArguments) =>
        `Invalid data. Expected a dictionary, but got ${args.value === null ? 'NoneType' : typeof args.value}.`,
    })(target, key);
    Type(dto)(target, key);
  };
}

/**
 * `{item, price, disabled, available_from, available_until}` of `item_price_overrides`; price null: the item's
 * default price.
 */
export class ItemPriceOverrideDto {
  @Required()
  @IsInteger({ min: 1 })
  item!: number;

  @Nullable()
  @IsMoney({ min: 0 })
  price?: string | number | null;

  /** Not sold on this date (default false). */
  @Optional()
  @IsBool()
  disabled?: boolean;

  /** Sold on this date only from this time on (null: no bound). */
  @Nullable()
  @IsDateTimeString()
  available_from?: string | null;

  /** Sold on this date only until this time (null: no bound). */
  @Nullable()
  @IsDateTimeString()
  available_until?: string | null;
}

/** `{variation, price, disabled, available_from, available_until}` of `variation_price_overrides`. */
export class VariationPriceOverrideDto {
  @Required()
  @IsInteger({ min: 1 })
  variation!: number;

  @Nullable()
  @IsMoney({ min: 0 })
  price?: string | number | null;

  /** Not sold on this date (default false). */
  @Optional()
  @IsBool()
  disabled?: boolean;

  /** Sold on this date only from this time on (null: no bound). */
  @Nullable()
  @IsDateTimeString()
  available_from?: string | null;

  /** Sold on this date only until this time (null: no bound). */
  @Nullable()
  @IsDateTimeString()
  available_until?: string | null;
}

/**
 * Body of `POST E/subevents/` and `PUT E/subevents/{id}/` (spec "Sub-event"; compat §3.17). `event` and `id` are
 * read-only and ignored. Datetimes ISO 8601; money as string or number with at most two decimals.
 */
export class CreateSubEventDto {
  @Required()
  @IsI18nString()
  name!: string | I18nString;

  /** Shop publicly available (default false). */
  @Optional()
  @IsBool()
  active?: boolean;

  /** Shown in public lists (default true). */
  @Optional()
  @IsBool()
  is_public?: boolean;

  @Required()
  @IsDateTimeString()
  date_from!: string;

  @Nullable()
  @IsDateTimeString()
  date_to?: string | null;

  @Nullable()
  @IsDateTimeString()
  date_admission?: string | null;

  @Nullable()
  @IsDateTimeString()
  presale_start?: string | null;

  @Nullable()
  @IsDateTimeString()
  presale_end?: string | null;

  @Nullable()
  @IsI18nString()
  location?: string | I18nString | null;

  @Nullable()
  @IsFloatNumber({ min: -90, max: 90 })
  geo_lat?: number | null;

  @Nullable()
  @IsFloatNumber({ min: -180, max: 180 })
  geo_lon?: number | null;

  @Nullable()
  @IsI18nString()
  frontpage_text?: string | I18nString | null;

  /** Internal comment. */
  @Nullable()
  @IsStr({ max: 10000 })
  comment?: string | null;

  /** Replaces the stored overrides when sent (default none). */
  @Optional()
  @IsList()
  @MaxItems(LIMITS.listEntries)
  @EachEntry(() => ItemPriceOverrideDto)
  item_price_overrides?: ItemPriceOverrideDto[];

  /** Replaces the stored overrides when sent (default none). */
  @Optional()
  @IsList()
  @MaxItems(LIMITS.listEntries)
  @EachEntry(() => VariationPriceOverrideDto)
  variation_price_overrides?: VariationPriceOverrideDto[];

  /** Property name -> value (strings); properties of the organizer only. */
  @Optional()
  @IsJsonObject()
  meta_data?: Record<string, string>;

  /** A seating plan of the organizer, or null. */
  @Nullable()
  @IsInteger({ min: 1 })
  seating_plan?: number | null;

  /** Seating-plan category name -> item id of the event (or null). */
  @Optional()
  @IsJsonObject()
  seat_category_mapping?: Record<string, number | null>;
}

/** Body of `PATCH E/subevents/{id}/`: every field optional. */
export class UpdateSubEventDto extends PartialType(CreateSubEventDto, { skipNullProperties: false }) {}

/** The scalar fields of a date (what the `subevent` table stores). */
export class SubEventFieldsDto extends OmitType(CreateSubEventDto, [
  'item_price_overrides',
  'variation_price_overrides',
] as const) {}
