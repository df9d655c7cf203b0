import { ApiHideProperty, ApiSchema, OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, ValidateNested, ValidationArguments } from 'class-validator';
import {
  IsBool,
  IsChoice,
  IsDateTimeString,
  IsI18nString,
  IsInteger,
  IsIntList,
  IsJsonObject,
  IsMoney,
  IsStr,
  IsStrList,
  Nullable,
  Optional,
  Required,
  rule,
  MaxItems,
} from '../../common/validation/fields';
import { LIMITS } from '../../config/limits';
import type { I18nString } from '../../common/values/i18n';
import { CreateAddonDto } from '../addons/addon.dto';
import { CreateBundleDto } from '../bundles/bundle.dto';
import { CreateProgramTimeDto } from '../program-times/program-time.dto';
import { CreateVariationDto } from '../variations/variation.dto';
import { AVAILABILITY_MODES } from './item-choices';

/** `media_policy` choices besides null (compat §3.10). */
export const MEDIA_POLICIES = ['reuse', 'new', 'reuse_or_new'] as const;
/** `media_type` choices besides null (compat §3.3). */
export const MEDIA_TYPES = ['barcode', 'nfc_uid', 'nfc_mf0aes'] as const;
/** `validity_mode` choices besides null (null = the event's validity). */
export const VALIDITY_MODES = ['fixed', 'dynamic'] as const;

/** DRF's name of a JSON value's type, for "expected ... but got <type>" messages. */
function jsonType(v: unknown): string {
  if (v === null) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return typeof v === 'object' ? 'dict' : typeof v;
}

/** A list (its entries are validated by `@ValidateNested`); null is refused by `@Optional()`. */
function IsList(): PropertyDecorator {
  return rule('isList', (v) =>
    v === undefined || v === null || Array.isArray(v)
      ? null
      : `Expected a list of items but got type "${jsonType(v)}".`,
  );
}

/**
 * Validates each entry of an inline list against its DTO; an entry that is not an object answers, aligned with
 * the list, `["Invalid data. Expected a dictionary, but got <type>."]`.
 */
function EachEntry(dto: () => new () => object): PropertyDecorator {
  return (target, key) => {
    ValidateNested({
      each: true,
      message: (args: ValidationArguments) =>
        `Invalid data. Expected a dictionary, but got ${jsonType(args.value)}.`,
    })(target, key);
    Type(dto)(target, key);
  };
}

/**
 * Body of `POST E/items/` and `PUT E/items/{id}/` (compat §3.10). Money fields take a number or a string with
 * at most two decimals; datetimes are ISO 8601. `picture`, `tax_rate` and `id` are read-only and ignored.
 */
export class CreateItemDto {
  @Required()
  @IsI18nString()
  name!: string | I18nString;

  @Nullable()
  @IsStr({ max: 255 })
  internal_name?: string | null;

  /** Money string, e.g. `"23.00"`. */
  @Required()
  @IsMoney()
  default_price!: string | number;

  /** Category id of the same event. */
  @Nullable()
  @IsInteger()
  category?: number | null;

  @Optional()
  @IsBool()
  active?: boolean;

  @Nullable()
  @IsI18nString()
  description?: string | I18nString | null;

  @Optional()
  @IsBool()
  free_price?: boolean;

  @Nullable()
  @IsMoney()
  free_price_suggestion?: string | number | null;

  /** Tax rule id of the same event; its rate is the item's `tax_rate`. */
  @Nullable()
  @IsInteger()
  tax_rule?: number | null;

  @Optional()
  @IsBool()
  admission?: boolean;

  /** Defaults to `admission` on create (compat); forced false when `admission` is set to false. */
  @Optional()
  @IsBool()
  personalized?: boolean;

  @Optional()
  @IsBool()
  issue_giftcard?: boolean;

  @Optional()
  @IsInteger()
  position?: number;

  @Nullable()
  @IsBool()
  generate_tickets?: boolean | null;

  @Optional()
  @IsBool()
  allow_waitinglist?: boolean;

  @Nullable()
  @IsDateTimeString()
  available_from?: string | null;

  /** `hide` (default) or `info`. */
  @Optional()
  @IsChoice(AVAILABILITY_MODES)
  available_from_mode?: string;

  @Nullable()
  @IsDateTimeString()
  available_until?: string | null;

  /** `hide` (default) or `info`. */
  @Optional()
  @IsChoice(AVAILABILITY_MODES)
  available_until_mode?: string;

  @Optional()
  @IsBool()
  require_bundling?: boolean;

  @Optional()
  @IsBool()
  require_voucher?: boolean;

  @Optional()
  @IsBool()
  hide_without_voucher?: boolean;

  @Optional()
  @IsBool()
  allow_cancel?: boolean;

  @Nullable()
  @IsInteger({ min: 0 })
  min_per_order?: number | null;

  @Nullable()
  @IsInteger({ min: 0 })
  max_per_order?: number | null;

  /** Quota id of the same event. */
  @Nullable()
  @IsInteger()
  hidden_if_available?: number | null;

  /** Item id of the same event. */
  @Nullable()
  @IsInteger()
  hidden_if_item_available?: number | null;

  /** `hide` (default) or `info`: hide the item, or show it as unavailable, while that item is available. */
  @Optional()
  @IsChoice(AVAILABILITY_MODES)
  hidden_if_item_available_mode?: string;

  @Optional()
  @IsBool()
  checkin_attention?: boolean;

  @Nullable()
  @IsStr()
  checkin_text?: string | null;

  /** Only taken into account on create; fixed afterwards. */
  @Optional()
  @IsBool()
  has_variations?: boolean;

  @Optional()
  @IsBool()
  require_approval?: boolean;

  @Nullable()
  @IsBool()
  show_quota_left?: boolean | null;

  @Nullable()
  @IsMoney()
  original_price?: string | number | null;

  /** Item meta property name to value; keys must be existing item meta properties. */
  @Optional()
  @IsJsonObject()
  meta_data?: Record<string, string>;

  @Optional()
  @IsBool()
  require_membership?: boolean;

  @Optional()
  @IsBool()
  require_membership_hidden?: boolean;

  /** Membership type ids of the event's organizer. */
  @Optional()
  @IsIntList()
  require_membership_types?: number[];

  /** Membership type id of the event's organizer. */
  @Nullable()
  @IsInteger()
  grant_membership_type?: number | null;

  @Optional()
  @IsBool()
  grant_membership_duration_like_event?: boolean;

  @Optional()
  @IsInteger({ min: 0 })
  grant_membership_duration_days?: number;

  @Optional()
  @IsInteger({ min: 0 })
  grant_membership_duration_months?: number;

  /** null, `reuse`, `new` or `reuse_or_new`; needs `media_type`. */
  @Nullable()
  @IsChoice(MEDIA_POLICIES)
  media_policy?: string | null;

  /** null, `barcode`, `nfc_uid` or `nfc_mf0aes`. */
  @Nullable()
  @IsChoice(MEDIA_TYPES)
  media_type?: string | null;

  /** null (event validity), `fixed` or `dynamic`. */
  @Nullable()
  @IsChoice(VALIDITY_MODES)
  validity_mode?: string | null;

  @Nullable()
  @IsDateTimeString()
  validity_fixed_from?: string | null;

  @Nullable()
  @IsDateTimeString()
  validity_fixed_until?: string | null;

  @Nullable()
  @IsInteger({ min: 0 })
  validity_dynamic_duration_minutes?: number | null;

  @Nullable()
  @IsInteger({ min: 0 })
  validity_dynamic_duration_hours?: number | null;

  @Nullable()
  @IsInteger({ min: 0 })
  validity_dynamic_duration_days?: number | null;

  @Nullable()
  @IsInteger({ min: 0 })
  validity_dynamic_duration_months?: number | null;

  @Optional()
  @IsBool()
  validity_dynamic_start_choice?: boolean;

  @Nullable()
  @IsInteger({ min: 0 })
  validity_dynamic_start_choice_day_limit?: number | null;

  /** Sold on every sales channel (default true); when false, only on `limit_sales_channels`. */
  @Optional()
  @IsBool()
  all_sales_channels?: boolean;

  @Optional()
  @IsStrList(undefined, { max: 200 })
  limit_sales_channels?: string[];

  /**
   * Legacy form of the two fields above: all known channels means `all_sales_channels`, otherwise the list is
   * `limit_sales_channels`. Null is refused.
   */
  @Nullable()
  @IsStrList(undefined, { max: 200 })
  sales_channels?: string[] | null;

  /**
   * Variations created with the item (create only; compat §3.10). Any entry makes the item `has_variations`.
   * Errors are aligned with the list: `{"variations": [{}, {"value": ["This field is required."]}]}`.
   */
  @Optional()
  @IsList()
  @MaxItems(LIMITS.listEntries)
  @EachEntry(() => CreateVariationDto)
  variations?: CreateVariationDto[];

  /** Add-ons created with the item (create only); rule errors come as a flat list under `addons` (pretix). */
  @Optional()
  @IsList()
  @MaxItems(LIMITS.listEntries)
  @EachEntry(() => CreateAddonDto)
  addons?: CreateAddonDto[];

  /** Bundles created with the item (create only); rule errors come as a flat list under `bundles` (pretix). */
  @Optional()
  @IsList()
  @MaxItems(LIMITS.listEntries)
  @EachEntry(() => CreateBundleDto)
  bundles?: CreateBundleDto[];

  /**
   * Program times created with the item (create only; pretix 2025+): `start`, `end`, `location`. The end-before-start
   * rule answers as a flat list under `program_times` (pretix).
   */
  @Optional()
  @IsList()
  @MaxItems(LIMITS.listEntries)
  @EachEntry(() => CreateProgramTimeDto)
  program_times?: CreateProgramTimeDto[];
}

/**
 * Body of `PUT E/items/{id}/`: the fields of create. `variations`, `addons`, `bundles` and `program_times` are refused (400)
 * whatever their value, so they are only declared to survive whitelisting (and left out of the OpenAPI document,
 * as no client may send them): use the nested endpoints.
 */
@ApiSchema({
  description:
    'The fields of item creation. `variations`, `addons`, `bundles` and `program_times` are refused (400): use ' +
    'the nested endpoints `items/{item}/variations/`, `…/addons/`, `…/bundles/` and `…/program_times/`.',
})
export class ReplaceItemDto extends OmitType(CreateItemDto, [
  'variations',
  'addons',
  'bundles',
  'program_times',
]) {
  /** Refused on PUT/PATCH: use `E/items/{item}/variations/`. */
  @Allow()
  @ApiHideProperty()
  variations?: unknown;

  /** Refused on PUT/PATCH: use `E/items/{item}/addons/`. */
  @Allow()
  @ApiHideProperty()
  addons?: unknown;

  /** Refused on PUT/PATCH: use `E/items/{item}/bundles/`. */
  @Allow()
  @ApiHideProperty()
  bundles?: unknown;

  /** Refused on PUT/PATCH: use `E/items/{item}/program_times/`. */
  @Allow()
  @ApiHideProperty()
  program_times?: unknown;
}

/** Body of `PATCH E/items/{id}/`: every field optional; null only where create allows it. */
export class UpdateItemDto extends PartialType(ReplaceItemDto, { skipNullProperties: false }) {}
