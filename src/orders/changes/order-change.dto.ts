import { PickType } from '@nestjs/swagger';
import {
  IsBool,
  IsChoice,
  IsDateTimeString,
  IsInteger,
  IsMoney,
  IsStr,
  MaxItems,
  Nullable,
  Optional,
  Required,
} from '../../common/validation/fields';
import { LIMITS } from '../../config/limits';
import { ATTENDEE_FIELDS, IsList, Nested, OrderPositionInputDto } from '../create/order.dto';
import { FEE_TYPES } from '../create/order-rules';

/**
 * Attendee fields a change may set on a position (pretix's order position fields; `attendee_name` is stored as
 * `{"_legacy": name}` and excludes `attendee_name_parts`).
 */
export class AttendeeFieldsDto extends PickType(OrderPositionInputDto, ATTENDEE_FIELDS) {}

/**
 * The new values of a position (`patch_positions[].body`; pretix `OrderPositionChangeSerializer`): only the fields
 * sent change. `price` is gross money; `seat` a seat guid (null: no seat); `tax_rule` a tax rule id of the event.
 */
export class PositionChangeDto extends AttendeeFieldsDto {
  @Optional()
  @IsInteger({ min: 1 })
  item?: number;

  @Nullable()
  @IsInteger({ min: 1 })
  variation?: number | null;

  @Nullable()
  @IsInteger({ min: 1 })
  subevent?: number | null;

  @Nullable()
  @IsStr({ max: 190 })
  seat?: string | null;

  @Optional()
  @IsMoney()
  price?: string | number;

  @Optional()
  @IsInteger({ min: 1 })
  tax_rule?: number;

  @Nullable()
  @IsDateTimeString()
  valid_from?: string | null;

  @Nullable()
  @IsDateTimeString()
  valid_until?: string | null;

  /** A new ticket secret, unique in the event. */
  @Optional()
  @IsStr({ blank: false, max: 64 })
  secret?: string;
}

/** One entry of `patch_positions`: the position's id and its new values. */
export class PatchPositionDto {
  /** Id of an active position of the order. */
  @Required()
  @IsInteger()
  position!: number;

  @Required()
  @Nested(() => PositionChangeDto)
  body!: PositionChangeDto;
}

/** One entry of `cancel_positions` or `split_positions`. */
export class SelectPositionDto {
  /** Id of an active position of the order. */
  @Required()
  @IsInteger()
  position!: number;
}

/**
 * A position to add to an existing order (`create_positions[]`; pretix `OrderPositionCreateForExistingOrderSerializer`).
 * `price` (gross) is the listed price when omitted or null; `addon_to` is the parent's `positionid`.
 */
export class NewPositionDto extends PickType(OrderPositionInputDto, [
  ...ATTENDEE_FIELDS,
  'item',
  'variation',
  'price',
  'secret',
  'addon_to',
  'subevent',
  'seat',
  'answers',
  'valid_from',
  'valid_until',
] as const) {}

/** Body of `POST E/orderpositions/`: a new position of the order named by `order` (its code). */
export class CreateOrderPositionDto extends NewPositionDto {
  /** Code of the order of this event the position is added to. */
  @Required()
  @IsStr({ blank: false, max: 16 })
  order!: string;
}

/** The new value of a fee (`patch_fees[].body`): gross money. */
export class FeeChangeDto {
  @Optional()
  @IsMoney()
  value?: string | number;
}

/** One entry of `patch_fees`. */
export class PatchFeeDto {
  /** Id of an active fee of the order. */
  @Required()
  @IsInteger()
  fee!: number;

  @Required()
  @Nested(() => FeeChangeDto)
  body!: FeeChangeDto;
}

/** One entry of `cancel_fees`. */
export class SelectFeeDto {
  /** Id of an active fee of the order. */
  @Required()
  @IsInteger()
  fee!: number;
}

/** A fee to add (`create_fees[]`): `value` is gross money, taxed by `tax_rule` (null: no tax). */
export class NewFeeDto {
  /** `payment`, `shipping`, `service`, `cancellation`, `insurance`, `late`, `other` or `giftcard`. */
  @Required()
  @IsChoice(FEE_TYPES)
  fee_type!: string;

  @Required()
  @IsMoney()
  value!: string | number;

  @Nullable()
  @IsStr({ max: 190 })
  description?: string | null;

  @Optional()
  @IsStr({ max: 255 })
  internal_type?: string;

  @Nullable()
  @IsInteger()
  tax_rule?: number | null;
}

/**
 * Body of `POST E/orders/{code}/change/` (compat §4.4 "Changing order contents", pretix
 * `OrderChangeOperationSerializer`): every part optional; all of it is applied in one transaction or nothing is.
 */
export class ChangeOrderDto {
  @Optional()
  @IsList()
  @MaxItems(LIMITS.orderPositions)
  @Nested(() => PatchPositionDto, true)
  patch_positions?: PatchPositionDto[];

  @Optional()
  @IsList()
  @MaxItems(LIMITS.orderPositions)
  @Nested(() => SelectPositionDto, true)
  cancel_positions?: SelectPositionDto[];

  @Optional()
  @IsList()
  @MaxItems(LIMITS.orderPositions)
  @Nested(() => NewPositionDto, true)
  create_positions?: NewPositionDto[];

  @Optional()
  @IsList()
  @MaxItems(LIMITS.orderPositions)
  @Nested(() => SelectPositionDto, true)
  split_positions?: SelectPositionDto[];

  @Optional()
  @IsList()
  @MaxItems(LIMITS.orderFees)
  @Nested(() => PatchFeeDto, true)
  patch_fees?: PatchFeeDto[];

  @Optional()
  @IsList()
  @MaxItems(LIMITS.orderFees)
  @Nested(() => SelectFeeDto, true)
  cancel_fees?: SelectFeeDto[];

  @Optional()
  @IsList()
  @MaxItems(LIMITS.orderFees)
  @Nested(() => NewFeeDto, true)
  create_fees?: NewFeeDto[];

  /** `keep_net` or `keep_gross`: recompute every position's tax from its tax rule; null (default): keep. */
  @Nullable()
  @IsChoice(['keep_net', 'keep_gross'])
  recalculate_taxes?: 'keep_net' | 'keep_gross' | null;

  /** Mail the customer about the change (default false). */
  @Optional()
  @IsBool()
  send_email?: boolean;

  /** Cancel the order's invoice and issue a new one when the change touches it (default true). */
  @Optional()
  @IsBool()
  reissue_invoice?: boolean;
}
