import { PartialType } from '@nestjs/swagger';
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
} from '../../common/validation/fields';
import type { I18nString } from '../../common/values/i18n';
import { AVAILABILITY_MODES } from '../items/item-choices';

/**
 * Body of `POST E/items/{item}/variations/`, `PUT E/items/{item}/variations/{id}/` and of each entry of an item's
 * inline `variations` on create (spec "Item variation"; compat §3.11). Money fields take a number or a string with
 * at most two decimals; datetimes are ISO 8601. `id` and `price` are read-only and ignored.
 */
export class CreateVariationDto {
  /** Variation name. */
  @Required()
  @IsI18nString()
  value!: string | I18nString;

  /** Money string or null (null: the item's `default_price` applies). */
  @Nullable()
  @IsMoney()
  default_price?: string | number | null;

  @Nullable()
  @IsMoney()
  free_price_suggestion?: string | number | null;

  /** Comparison price shown struck through; not used in calculations. */
  @Nullable()
  @IsMoney()
  original_price?: string | number | null;

  @Optional()
  @IsBool()
  active?: boolean;

  @Nullable()
  @IsI18nString()
  description?: string | I18nString | null;

  @Optional()
  @IsInteger({ min: 0 })
  position?: number;

  @Optional()
  @IsBool()
  checkin_attention?: boolean;

  @Nullable()
  @IsStr()
  checkin_text?: string | null;

  @Optional()
  @IsBool()
  require_approval?: boolean;

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

  /** Sold on every sales channel (default true); when false, only on `limit_sales_channels`. */
  @Optional()
  @IsBool()
  all_sales_channels?: boolean;

  @Optional()
  @IsStrList(undefined, { max: 200 })
  limit_sales_channels?: string[];

  /** Legacy form of the two fields above (as on items). Null is refused. */
  @Nullable()
  @IsStrList(undefined, { max: 200 })
  sales_channels?: string[] | null;

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
  hide_without_voucher?: boolean;

  /** Item meta property name to value; keys must be existing item meta properties. */
  @Optional()
  @IsJsonObject()
  meta_data?: Record<string, string>;
}

/** Body of `PATCH E/items/{item}/variations/{id}/`: every field optional; null only where create allows it. */
export class UpdateVariationDto extends PartialType(CreateVariationDto, { skipNullProperties: false }) {}
