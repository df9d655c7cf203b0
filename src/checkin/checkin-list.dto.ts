import { PartialType } from '@nestjs/swagger';
import {
  IsBool,
  IsDateTimeString,
  IsInteger,
  IsIntList,
  IsJsonObject,
  IsStr,
  Nullable,
  Optional,
  Required,
} from '../common/validation/fields';

/** Body of `POST E/checkinlists/` and `PUT E/checkinlists/{id}/` (spec "Check-in list"; compat §3.20). */
export class CreateCheckinListDto {
  @Required()
  @IsStr({ max: 190 })
  name!: string;

  /** Admit every product (then `limit_products` is ignored); default false. */
  @Optional()
  @IsBool()
  all_products?: boolean;

  /** Item ids of the event this list admits; default `[]`. */
  @Optional()
  @IsIntList()
  limit_products?: number[];

  /** Sub-event id (series only); default null. */
  @Nullable()
  @IsInteger()
  subevent?: number | null;

  @Optional()
  @IsBool()
  include_pending?: boolean;

  @Optional()
  @IsBool()
  allow_multiple_entries?: boolean;

  /** Default true. */
  @Optional()
  @IsBool()
  allow_entry_after_exit?: boolean;

  @Optional()
  @IsBool()
  addon_match?: boolean;

  /** ISO 8601 datetime or null: everybody is checked out then (and the value moves one day on). */
  @Nullable()
  @IsDateTimeString()
  exit_all_at?: string | null;

  /**
   * pretix's JsonLogic rules ("not a stable API"); default `{}`. Bounded: at most 10,000 values, lists
   * of 2,000 entries, strings of 1,000 characters, iterations nested 2 deep and a worst case of 50,000 operations
   * per scan; past a bound 400 names it.
   */
  @Optional()
  @IsJsonObject()
  rules?: Record<string, unknown>;

  @Optional()
  @IsBool()
  ignore_in_statistics?: boolean;

  /** Default true. */
  @Optional()
  @IsBool()
  consider_tickets_used?: boolean;
}

/** Body of `PATCH E/checkinlists/{id}/`: every field optional. */
export class UpdateCheckinListDto extends PartialType(CreateCheckinListDto, { skipNullProperties: false }) {}
