import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ValidateNested, ValidationArguments } from 'class-validator';
import {
  IsBool,
  IsDateTimeString,
  IsInteger,
  IsMoney,
  IsStr,
  Nullable,
  Optional,
  MaxItems,
  Required,
  rule,
} from '../../common/validation/fields';
import { LIMITS } from '../../config/limits';
import { AnswerInputDto } from '../answers/answer-input.dto';
import { CartPositionJson } from '../presentation/cart-position.presenter';

/** Suffix every cart id created through the API carries; only such carts are visible (compat §3.2). */
export const API_CART_SUFFIX = '@api';

export const CART_ID_MESSAGE = 'Cart ID should end in @api or be empty.';
export const BUNDLED_UNSUPPORTED =
  'Bundled products are not supported when creating cart positions through the API; leave "bundled" empty.';

/** DRF's name of a JSON value's type, for "expected ... but got <type>" messages. */
export function jsonTypeName(v: unknown): string {
  if (v === null) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return typeof v === 'object' ? 'dict' : typeof v;
}

const absent = (v: unknown): boolean => v === undefined || v === null;

/** A JSON list (entries are checked separately). */
const IsList = () =>
  rule('isList', (v) =>
    absent(v) || Array.isArray(v) ? null : `Expected a list of items but got type "${jsonTypeName(v)}".`,
  );

/** A list that must be empty: add-ons and bundles are not supported by this experimental endpoint (spec). */
const IsEmptyList = (message: string) =>
  rule('isEmptyList', (v) => {
    if (absent(v)) return null;
    if (!Array.isArray(v)) return `Expected a list of items but got type "${jsonTypeName(v)}".`;
    return v.length === 0 ? null : message;
  });

/** `cart_id`: empty/absent (generated) or a string ending in `@api` (pretix `validate_cart_id`). */
const IsApiCartId = () =>
  rule('isApiCartId', (v) =>
    absent(v) || v === '' || (typeof v === 'string' && v.endsWith(API_CART_SUFFIX)) ? null : CART_ID_MESSAGE,
  );

/** Name parts: a JSON object whose values are strings (`given_name`, `family_name`, `_scheme`, ...). */
const IsNameParts = () =>
  rule('isNameParts', (v) => {
    if (absent(v)) return null;
    if (typeof v !== 'object' || Array.isArray(v))
      return `Expected a dictionary of items but got type "${jsonTypeName(v)}".`;
    for (const part of Object.values(v as Record<string, unknown>)) {
      if (typeof part !== 'string') return 'Every name part must be a string.';
      if (part.length > 255) return 'Ensure every name part has no more than 255 characters.';
    }
    return null;
  });

/** An e-mail address, or "" (stored as null) like DRF's `EmailField(allow_blank=True)`. */
const IsOptionalEmail = () =>
  rule('isEmail', (v) => {
    if (absent(v) || v === '') return null;
    if (typeof v !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) return 'Enter a valid email address.';
    return v.length > 254 ? 'Ensure this field has no more than 254 characters.' : null;
  });

/**
 * A sales channel identifier (a string); whether the organizer has that channel is checked by the service
 * against its channels (DRF `SlugRelatedField` message `Object with identifier=x does not exist.`).
 */
const IsSalesChannel = () =>
  rule('isSalesChannel', (v) => (absent(v) || typeof v === 'string' ? null : 'Not a valid string.'));

/**
 * An add-on of a new cart position (pretix's nested cart position; compat §3.2 `addons`): created in the parent's
 * cart, linked to it (`addon_to`), with the parent's `expires` and sales channel. No seat, voucher or add-ons of
 * its own. `price` may be omitted: then the listed price, or 0 when the parent's add-on configuration includes
 * the price (`price_included`), as on order creation.
 */
export class CartAddonInputDto {
  @Required()
  @IsInteger()
  item!: number;

  @Nullable()
  @IsInteger()
  variation?: number | null;

  /** Money stored as sent; omitted or null: computed (above). */
  @Nullable()
  @IsMoney()
  price?: string | number | null;

  @Nullable()
  @IsStr({ max: 255 })
  attendee_name?: string | null;

  @Optional()
  @IsNameParts()
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  attendee_name_parts?: Record<string, string>;

  @Nullable()
  @IsOptionalEmail()
  attendee_email?: string | null;

  /** Sub-event id: required for event series (as for the parent), refused otherwise. */
  @Nullable()
  @IsInteger()
  subevent?: number | null;

  @Nullable()
  @IsBool()
  includes_tax?: boolean | null;

  @Optional()
  @IsList()
  @MaxItems(LIMITS.answersPerPosition)
  @ValidateNested({
    message: (args: ValidationArguments) =>
      `Invalid data. Expected a dictionary, but got ${jsonTypeName(args.value)}.`,
  })
  @Type(() => AnswerInputDto)
  answers?: AnswerInputDto[];
}

/**
 * Body of `POST E/cartpositions/` and of each entry of `POST E/cartpositions/bulk_create/` (spec "Cart position",
 * "### Cart positions"; compat §3.2). Experimental like in pretix: the price is stored as sent, sale time frames
 * are not checked, bundles and file questions are not supported. Unknown fields are ignored.
 */
export class CreateCartPositionDto {
  /** Must end in `@api`; omitted, null or empty: one random `<48 chars>@api` id shared by the request. */
  @Nullable()
  @IsStr({ max: 255 })
  @IsApiCartId()
  cart_id?: string | null;

  /** Item id of this event (active). */
  @Required()
  @IsInteger()
  item!: number;

  /** Variation id of `item`; required exactly when the item has variations. */
  @Nullable()
  @IsInteger()
  variation?: number | null;

  /** Money (string or number, two decimals), stored as sent. */
  @Required()
  @IsMoney()
  price!: string | number;

  /** Single-string name, stored as `{"_legacy": name}`; not together with `attendee_name_parts`. */
  @Nullable()
  @IsStr({ max: 255 })
  attendee_name?: string | null;

  @Optional()
  @IsNameParts()
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  attendee_name_parts?: Record<string, string>;

  @Nullable()
  @IsOptionalEmail()
  attendee_email?: string | null;

  /** Sub-event id: required for event series, refused otherwise. */
  @Nullable()
  @IsInteger()
  subevent?: number | null;

  /** UTC datetime after which the position no longer blocks quota; default now + 30 minutes. */
  @Optional()
  @IsDateTimeString()
  expires?: string;

  /** Whether `price` includes tax; default true (null too). */
  @Nullable()
  @IsBool()
  includes_tax?: boolean | null;

  /** `web` (default) or `api`. */
  @Optional()
  @IsSalesChannel()
  sales_channel?: string;

  /** Seat guid: required for a seated product (mapped to a category of the plan), refused for others. */
  @Nullable()
  @IsStr({ max: 190 })
  seat?: string | null;

  /** Voucher **code** (case-insensitive), unlike order creation which takes the voucher id (compat §7.9). */
  @Nullable()
  @IsStr({ max: 255 })
  voucher?: string | null;

  /** Answers validated like those of orders; file questions are not supported. */
  @Optional()
  @IsList()
  @MaxItems(LIMITS.answersPerPosition)
  @ValidateNested({
    message: (args: ValidationArguments) =>
      `Invalid data. Expected a dictionary, but got ${jsonTypeName(args.value)}.`,
  })
  @Type(() => AnswerInputDto)
  answers?: AnswerInputDto[];

  /**
   * Add-on positions (at most `LIMITS.answersPerPosition`), checked against the item's add-on configurations:
   * category, `min_count`/`max_count` (counted when `addons` is sent), `multi_allowed`.
   */
  @Optional()
  @IsList()
  @MaxItems(LIMITS.answersPerPosition)
  @ValidateNested({
    each: true,
    message: (args: ValidationArguments) =>
      `Invalid data. Expected a dictionary, but got ${jsonTypeName(args.value)}.`,
  })
  @Type(() => CartAddonInputDto)
  addons?: CartAddonInputDto[];

  /** Not supported: only an empty list (or nothing) is accepted. */
  @Optional()
  @IsEmptyList(BUNDLED_UNSUPPORTED)
  @ApiPropertyOptional({ type: () => [CreateCartPositionDto], maxItems: 0 })
  bundled?: unknown[];
}

/**
 * A created cart position as pretix answers it: the position plus its nested `addons` (as created) and `bundled`
 * positions (always empty: bundles cannot be created through this API).
 */
export class CreatedCartPositionJson extends CartPositionJson {
  addons!: CartPositionJson[];
  bundled!: CartPositionJson[];
}

/** One entry of a `bulk_create` answer, aligned with the input. */
export class CartPositionResultJson {
  success!: boolean;
  /** The created position, or null when this entry failed. */
  data!: CreatedCartPositionJson | null;
  /** Field errors of this entry (`{"item": [...]}`, `{"non_field_errors": [...]}`), or null on success. */
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true })
  errors!: Record<string, unknown> | null;
}

/** Answer of `POST E/cartpositions/bulk_create/` (200). */
export class CartPositionBulkJson {
  results!: CartPositionResultJson[];
}
