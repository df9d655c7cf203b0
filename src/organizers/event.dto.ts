import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IANAZone } from 'luxon';
import {
  IsBool,
  IsDateTimeString,
  IsFloatNumber,
  IsI18nString,
  IsInteger,
  IsJsonObject,
  IsSlug,
  IsStrList,
  Nullable,
  Optional,
  Required,
  rule,
} from '../common/validation/fields';
import type { I18nString } from '../common/values/i18n';

/** IANA time zone names (validated with luxon). */
export function IsTimeZone(): PropertyDecorator {
  return rule('isTimeZone', (v) =>
    v === undefined || v === null || (typeof v === 'string' && IANAZone.isValidZone(v))
      ? null
      : `"${typeof v === 'string' ? v : JSON.stringify(v)}" is not a valid choice.`,
  );
}

/** pretix's message for an `item_meta_properties` value that is not an object of strings. */
const ITEM_META_SHAPE = 'item_meta_properties needs to be an object (str -> str).';

/** Names of item meta properties (as `E/item_meta_properties/` takes them). */
const ITEM_META_NAME = /^[a-zA-Z0-9_]+$/;

/**
 * The event's `item_meta_properties` (pretix's MetaPropertyField): an object of property name to default, every
 * value a string. Names follow the item meta property name rule (at most 50 letters, digits or underscores; pretix
 * does not check names here).
 */
export function IsItemMetaProperties(): PropertyDecorator {
  return rule('isItemMetaProperties', (v) => {
    if (v === undefined || v === null) return null;
    if (typeof v !== 'object' || Array.isArray(v)) return ITEM_META_SHAPE;
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.some(([, value]) => typeof value !== 'string')) return ITEM_META_SHAPE;
    const bad = entries.find(([name]) => name.length > 50 || !ITEM_META_NAME.test(name));
    return bad
      ? `The property name '${bad[0]}' may only contain letters, numbers and underscores (at most 50).`
      : null;
  });
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** ISO 4217 currency codes known to the runtime (ICU), e.g. `EUR`. */
export function IsCurrency(): PropertyDecorator {
  return rule('isCurrency', (v) =>
    v === undefined || v === null || (typeof v === 'string' && CURRENCIES.has(v))
      ? null
      : `"${typeof v === 'string' ? v : JSON.stringify(v)}" is not a valid choice.`,
  );
}

/**
 * Body of `POST O/events/` and `PUT O/events/{event}/` (compat §4.2). Money-free; datetimes ISO 8601.
 */
export class CreateEventDto {
  @Required()
  @IsI18nString()
  name!: string | I18nString;

  @Required()
  @IsSlug()
  slug!: string;

  @Optional()
  @IsBool()
  live?: boolean;

  @Optional()
  @IsBool()
  testmode?: boolean;

  /** ISO 4217 code. */
  @Required()
  @IsCurrency()
  currency!: string;

  @Required()
  @IsDateTimeString()
  date_from!: string;

  @Nullable()
  @IsDateTimeString()
  date_to?: string | null;

  @Nullable()
  @IsDateTimeString()
  date_admission?: string | null;

  @Optional()
  @IsBool()
  is_public?: boolean;

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

  @Optional()
  @IsBool()
  has_subevents?: boolean;

  /** Object of meta-data property name to value (strings). */
  @Optional()
  @IsJsonObject()
  meta_data?: Record<string, string>;

  /** IANA time zone, default `UTC`. */
  @Optional()
  @IsTimeZone()
  timezone?: string;

  /** Seating plan id (seating issue); null for now. */
  @Nullable()
  @IsInteger({ min: 1 })
  seating_plan?: number | null;

  @Optional()
  @IsJsonObject()
  seat_category_mapping?: Record<string, number | null>;

  /**
   * Item meta properties of the event as name to default. When sent, the event's properties become exactly
   * these: defaults are set, new names created, unnamed properties deleted with their values on items.
   */
  @Optional()
  @IsItemMetaProperties()
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  item_meta_properties?: Record<string, string>;

  /** Package names of plugins; checked (unknown or wrong-level plugins refused) but the list never changes. */
  @Optional()
  @IsStrList()
  plugins?: string[];

  /** Sold through every channel of the organizer (default true). */
  @Optional()
  @IsBool()
  all_sales_channels?: boolean;

  /** Channel identifiers of the organizer when `all_sales_channels` is false. */
  @Optional()
  @IsStrList(undefined, { max: 200 })
  limit_sales_channels?: string[];

  /** Legacy: the channel list (all of the organizer's channels means `all_sales_channels`); null is refused. */
  @Nullable()
  @IsStrList(undefined, { max: 200 })
  sales_channels?: string[] | null;
}

/** Body of `PATCH O/events/{event}/`: every field optional, none nullable unless it is in create. */
export class UpdateEventDto extends PartialType(CreateEventDto, { skipNullProperties: false }) {}
