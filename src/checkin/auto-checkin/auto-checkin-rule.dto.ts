import { applyDecorators } from '@nestjs/common';
import { ApiProperty, PartialType } from '@nestjs/swagger';
import { ApiInt } from '../../common/http/api-schemas';
import {
  IsBool,
  IsChoice,
  IsIntList,
  IsStrList,
  Nullable,
  Optional,
  rule,
} from '../../common/validation/fields';
import { LIMITS, tooManyMessage } from '../../config/limits';
import { AUTO_CHECKIN_MODES, AUTO_CHECKIN_PAYMENT_METHODS } from './auto-checkin.rules';

/**
 * A primary-key reference (DRF `PrimaryKeyRelatedField`): an integer, else `Incorrect type. Expected pk value,
 * received str.` (compat §1.5). Whether it names a list of the event is checked by the service.
 */
function IsPk(): PropertyDecorator {
  const check = rule('isPk', (v) => {
    if (v === undefined || v === null) return null;
    if (typeof v === 'number' && Number.isInteger(v)) return null;
    const type =
      typeof v === 'string' ? 'str' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'dict' : 'float';
    return `Incorrect type. Expected pk value, received ${typeof v === 'boolean' ? 'bool' : type}.`;
  });
  return applyDecorators(check, ApiInt({ nullable: true }));
}

/**
 * Sales channel identifiers (DRF `SlugRelatedField(many=True, slug_field="identifier")`): a list of strings;
 * that each is one of the organizer's channels is checked by the service (`Object with identifier=<x> does not
 * exist.`).
 */
function IsSalesChannelList(): PropertyDecorator {
  const check = rule('isSalesChannelList', (v) => {
    if (v === undefined || v === null) return null;
    if (!Array.isArray(v)) {
      const type = typeof v === 'string' ? 'str' : typeof v === 'object' ? 'dict' : typeof v;
      return `Expected a list of items but got type "${type}".`;
    }
    if (v.length > LIMITS.listEntries) return tooManyMessage(LIMITS.listEntries);
    for (const x of v as unknown[]) {
      if (typeof x !== 'string') return 'Invalid value.';
    }
    return null;
  });
  return applyDecorators(
    check,
    ApiProperty({ type: 'array', items: { type: 'string' }, maxItems: LIMITS.listEntries }),
  );
}

/**
 * Body of `POST E/auto_checkin_rules/` and `PUT E/auto_checkin_rules/{id}/` (pretix plugin `autocheckin`,
 * `AutoCheckinRuleSerializer`). Every field is optional; PUT resets omitted fields to these defaults.
 */
export class CreateAutoCheckinRuleDto {
  /** Check-in list id of this event; null (the default): every list that admits the position. */
  @Nullable()
  @IsPk()
  list?: number | null;

  /** `placed` (default): when the order is placed; `paid`: when it is paid. */
  @Optional()
  @IsChoice(AUTO_CHECKIN_MODES)
  mode?: string;

  /** Default true. */
  @Optional()
  @IsBool()
  all_sales_channels?: boolean;

  /** Sales channel identifiers (used when `all_sales_channels` is false); default `[]`. */
  @Optional()
  @IsSalesChannelList()
  limit_sales_channels?: string[];

  /** Default true. */
  @Optional()
  @IsBool()
  all_products?: boolean;

  /** Item ids of this event (used when `all_products` is false); default `[]`. */
  @Optional()
  @IsIntList()
  limit_products?: number[];

  /** Variation ids of items of this event (used when `all_products` is false); default `[]`. */
  @Optional()
  @IsIntList()
  limit_variations?: number[];

  /** Default true; must be true with `mode` `placed`. */
  @Optional()
  @IsBool()
  all_payment_methods?: boolean;

  /** Payment provider identifiers (used when `all_payment_methods` is false; paid mode); default `[]`. */
  @Optional()
  @IsStrList(AUTO_CHECKIN_PAYMENT_METHODS)
  limit_payment_methods?: string[];
}

/** Body of `PATCH E/auto_checkin_rules/{id}/`: every field optional. */
export class UpdateAutoCheckinRuleDto extends PartialType(CreateAutoCheckinRuleDto, {
  skipNullProperties: false,
}) {}
