import { applyDecorators } from '@nestjs/common';
import { ApiProperty, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ValidateNested, ValidationArguments } from 'class-validator';
import {
  IsBool,
  IsChoice,
  IsDateString,
  IsDateTimeString,
  IsEmailAddress,
  IsInteger,
  IsJsonObject,
  IsMoney,
  IsStr,
  IsStrList,
  Nullable,
  Optional,
  MaxItems,
  Required,
  rule,
} from '../../common/validation/fields';
import { LIMITS } from '../../config/limits';
import { InvoiceAddressInputDto, IsCountry } from './invoice-address.dto';
import { AnswerInputDto } from '../answers/answer-input.dto';
import { PAYMENT_PROVIDERS, UNKNOWN_PROVIDER } from '../payments/order-payments.rules';
import { FEE_TYPES, TAX_ROUNDING_MODES } from './order-rules';

/** DRF's name of a JSON value's type, for "expected ... but got <type>" messages. */
function jsonType(v: unknown): string {
  if (v === null) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  return typeof v === 'object' ? 'dict' : typeof v;
}

/** A list (entries validated by {@link Nested}); null is refused by `@Optional()`/`@Required()`. */
export function IsList(): PropertyDecorator {
  return rule('isList', (v) =>
    v === undefined || v === null || Array.isArray(v)
      ? null
      : `Expected a list of items but got type "${jsonType(v)}".`,
  );
}

/**
 * A nested object, or with `each` every entry of a list, validated against its DTO; a value that is not an object
 * answers `["Invalid data. Expected a dictionary, but got <type>."]` (aligned with the list).
 */
export function Nested(dto: () => new () => object, each = false): PropertyDecorator {
  return (target, key) => {
    ValidateNested({
      each,
      message: (args: ValidationArguments) =>
        `Invalid data. Expected a dictionary, but got ${jsonType(args.value)}.`,
    })(target, key);
    Type(dto)(target, key);
  };
}

/** `voucher` of a position: the voucher's id (integer) or its code (string, case-insensitive). */
function IsVoucherReference(): PropertyDecorator {
  const check = rule('isVoucherReference', (v) => {
    if (v === undefined || v === null) return null;
    if (typeof v === 'number') return Number.isInteger(v) && v >= 1 ? null : 'A valid integer is required.';
    if (typeof v === 'string')
      return v.trim() === ''
        ? 'This field may not be blank.'
        : v.length > 255
          ? 'Ensure this field has no more than 255 characters.'
          : null;
    return 'Incorrect type. Expected a voucher id or code.';
  });
  return applyDecorators(
    check,
    ApiProperty({
      oneOf: [
        { type: 'integer', format: 'int32', minimum: 1, description: 'Voucher id.' },
        { type: 'string', minLength: 1, maxLength: 255, description: 'Voucher code (case-insensitive).' },
      ],
    }),
  );
}

/**
 * `sales_channel`: a string; whether the organizer has that channel is checked by `OrderCreator` (compat §4.4:
 * `Unknown sales channel.`).
 */
function IsSalesChannel(): PropertyDecorator {
  return rule('isSalesChannel', (v) =>
    v === undefined || v === null || typeof v === 'string' ? null : 'Unknown sales channel.',
  );
}

/** A fee of a new order (compat §4.4 `fees`). `value` is gross money. */
export class OrderFeeInputDto {
  /** `payment`, `shipping`, `service`, `cancellation`, `insurance`, `late`, `other` or `giftcard`. */
  @Required()
  @IsChoice(FEE_TYPES)
  fee_type!: string;

  /** Money (gross). */
  @Required()
  @IsMoney()
  value!: string | number;

  @Optional()
  @IsStr({ max: 190 })
  description?: string;

  @Optional()
  @IsStr({ max: 255 })
  internal_type?: string;

  /** Tax rule id of this event, or null for no tax. */
  @Nullable()
  @IsInteger()
  tax_rule?: number | null;
}

/** The attendee fields of a position, as named on the wire (pretix's order position fields). */
export const ATTENDEE_FIELDS = [
  'attendee_name',
  'attendee_name_parts',
  'attendee_email',
  'company',
  'street',
  'zipcode',
  'city',
  'country',
  'state',
] as const;

/**
 * A position of a new order (compat §4.4 "Position input"). `price` (gross money) is computed when omitted or
 * null; `voucher` is an id or a code; `addon_to` is the parent's `positionid`; `attendee_name` (stored as
 * `{"_legacy": name}`) and `attendee_name_parts` exclude each other.
 */
export class OrderPositionInputDto {
  /** 1-based number within the order: sent for all positions (consecutive) or for none. */
  @Nullable()
  @IsInteger({ min: 1 })
  positionid?: number | null;

  @Required()
  @IsInteger()
  item!: number;

  @Nullable()
  @IsInteger()
  variation?: number | null;

  @Nullable()
  @IsMoney()
  price?: string | number | null;

  @Nullable()
  @IsStr({ max: 255 })
  attendee_name?: string | null;

  @Nullable()
  @IsJsonObject()
  attendee_name_parts?: Record<string, string> | null;

  @Nullable()
  @IsEmailAddress()
  attendee_email?: string | null;

  @Nullable()
  @IsStr({ max: 255 })
  company?: string | null;

  @Nullable()
  @IsStr()
  street?: string | null;

  @Nullable()
  @IsStr({ max: 30 })
  zipcode?: string | null;

  @Nullable()
  @IsStr({ max: 255 })
  city?: string | null;

  @Nullable()
  @IsCountry()
  country?: string | null;

  @Nullable()
  @IsStr({ max: 255 })
  state?: string | null;

  /** Custom ticket secret, unique in the event; 32 random characters when omitted. */
  @Optional()
  @IsStr({ blank: false, max: 64 })
  secret?: string;

  /** `positionid` of the parent position. */
  @Nullable()
  @IsInteger()
  addon_to?: number | null;

  /** Sub-event id (required for event series). */
  @Nullable()
  @IsInteger()
  subevent?: number | null;

  /** Seat guid. */
  @Nullable()
  @IsStr({ max: 190 })
  seat?: string | null;

  /** Voucher id (integer) or code (string, case-insensitive). */
  @Nullable()
  @IsVoucherReference()
  voucher?: number | string | null;

  @Optional()
  @IsList()
  @MaxItems(LIMITS.answersPerPosition)
  @Nested(() => AnswerInputDto, true)
  answers?: AnswerInputDto[];

  @Nullable()
  @IsDateTimeString()
  valid_from?: string | null;

  @Nullable()
  @IsDateTimeString()
  valid_until?: string | null;

  @Optional()
  @IsBool()
  is_bundled?: boolean;
}

/**
 * Body of `POST E/orders/` (compat §4.4 "Order creation"). Only `positions` is required. `status` is `n`
 * (default) or `p`; `force` skips quota and voucher-usage checks; `simulate` validates and prices without
 * writing; `consume_carts` releases the named carts' places to this order; `send_email` writes a confirmation
 * to the mail outbox.
 */
export class CreateOrderDto {
  /** 5 to 16 characters of `ABCDEFGHJKLMNPQRSTUVWXYZ1234567890`, unique in the organizer; generated if omitted. */
  @Optional()
  @IsStr({ blank: false, min: 5, max: 16 })
  code?: string;

  /** `n` (pending, default) or `p` (paid). */
  @Optional()
  @IsChoice(['n', 'p'])
  status?: string;

  @Optional()
  @IsBool()
  testmode?: boolean;

  @Nullable()
  @IsEmailAddress()
  email?: string | null;

  @Nullable()
  @IsStr({ max: 64 })
  phone?: string | null;

  /** Default `en`. */
  @Nullable()
  @IsStr({ blank: false, max: 32 })
  locale?: string | null;

  /** `web` (default) or `api`. */
  @Optional()
  @IsSalesChannel()
  sales_channel?: string;

  @Optional()
  @IsStr()
  comment?: string;

  @Optional()
  @IsBool()
  checkin_attention?: boolean;

  @Nullable()
  @IsStr()
  checkin_text?: string | null;

  @Nullable()
  @IsDateString()
  custom_followup_at?: string | null;

  @Optional()
  @IsBool()
  require_approval?: boolean;

  @Optional()
  @IsBool()
  valid_if_pending?: boolean;

  /** Free JSON object kept with the order. */
  @Optional()
  @IsJsonObject()
  api_meta?: Record<string, unknown>;

  /** Identifier of a customer account of the organizer the order belongs to (pretix `customer`). */
  @Optional()
  @IsStr({ blank: false, max: 190 })
  customer?: string;

  /** Free JSON object for plugins (pretix 2025.2); `{}` by default. */
  @Optional()
  @IsJsonObject()
  plugin_data?: Record<string, unknown>;

  /** Tax rounding mode (pretix 2025.10): `line` (default), `sum_by_net` or `sum_by_net_keep_gross`. */
  @Optional()
  @IsChoice(TAX_ROUNDING_MODES)
  tax_rounding_mode?: string;

  /** Payment deadline of a pending order (pretix 2024.1); default: the event's payment term from now. */
  @Optional()
  @IsDateTimeString()
  expires?: string;

  @Nullable()
  @Nested(() => InvoiceAddressInputDto)
  invoice_address?: InvoiceAddressInputDto | null;

  @Optional()
  @IsList()
  @MaxItems(LIMITS.orderFees)
  @Nested(() => OrderFeeInputDto, true)
  fees?: OrderFeeInputDto[];

  /**
   * Provider stored on the payment (`manual` for paid orders when omitted, `free` for free ones): one of
   * `banktransfer`, `boxoffice`, `free`, `manual`, `offsetting`.
   */
  @Nullable()
  @rule('paymentProvider', (v) =>
    typeof v !== 'string' || PAYMENT_PROVIDERS.includes(v) ? null : UNKNOWN_PROVIDER,
  )
  @IsStr({ blank: false, max: 100 })
  payment_provider?: string | null;

  /** Free JSON object stored on the payment. */
  @Optional()
  @IsJsonObject()
  payment_info?: Record<string, unknown>;

  /** Date of the payment of a paid order (default now). */
  @Nullable()
  @IsDateTimeString()
  payment_date?: string | null;

  /** At most `LIMITS.orderPositions` (README "Limits"). */
  @Required()
  @IsList()
  @MaxItems(LIMITS.orderPositions)
  @Nested(() => OrderPositionInputDto, true)
  positions!: OrderPositionInputDto[];

  /** Cart ids whose live positions are deleted, their places going to this order. */
  @Optional()
  @IsStrList(undefined, { max: 255 })
  @MaxItems(LIMITS.consumeCarts)
  consume_carts?: string[];

  /**
   * Gift card secrets (pretix `use_gift_cards`, pretix 2026.03): a pending order is paid with these cards, in this
   * order, until its total is covered (each card a confirmed `giftcard` payment; paid when covered). Not with
   * `payment_provider`/`payment_info`, only for status `n`, no secret twice.
   */
  @Optional()
  @IsStrList(undefined, { max: 190 }, { max: LIMITS.useGiftCards })
  use_gift_cards?: string[];

  @Optional()
  @IsBool()
  force?: boolean;

  /** Default false; null means false. */
  @Nullable()
  @IsBool()
  send_email?: boolean | null;

  @Optional()
  @IsBool()
  simulate?: boolean;
}

/**
 * Body of `PATCH E/orders/{code}/` (compat §4.4): only these fields change; any other field is ignored.
 * `invoice_address` replaces the address (created when missing; null removes it).
 */
export class UpdateOrderDto extends PickType(CreateOrderDto, [
  'email',
  'phone',
  'comment',
  'checkin_attention',
  'checkin_text',
  'custom_followup_at',
  'valid_if_pending',
  'api_meta',
  'plugin_data',
  'invoice_address',
] as const) {
  /** Unlike on create, null is refused: an order always has a language. */
  @Optional()
  @IsStr({ blank: false, max: 32 })
  locale?: string;
}
