import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  IsBool,
  IsDateTimeString,
  IsJsonObject,
  IsMoney,
  IsStr,
  Nullable,
  Optional,
  Required,
  rule,
} from '../common/validation/fields';
import { IsCurrency } from '../organizers/event.dto';

/** Gift card codes: letters, digits, dots and dashes, starting with a letter or digit (pretix's rule). */
export const SECRET_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9.-]+$/;

/** An order position given by id (a positive integer) or by its ticket secret (a non-blank string). */
function IsPositionRef(): PropertyDecorator {
  return rule('isPositionRef', (v) => {
    if (v === undefined || v === null) return null;
    if (typeof v === 'number') return Number.isInteger(v) && v >= 1 ? null : 'A valid integer is required.';
    if (typeof v === 'string') return v.trim() === '' ? 'This field may not be blank.' : null;
    return 'Incorrect type. Expected pk value or a ticket secret.';
  });
}

/**
 * Body of `POST O/giftcards/` and `PUT O/giftcards/{id}/` (spec "Gift card"; compat §3.4). `secret`, `currency`
 * and `testmode` are fixed after creation: an update that sends a different value answers 400. `id`, `issuance`
 * and `issuer` are read-only and ignored.
 */
export class CreateGiftCardDto {
  /** Gift card code, unique within the organizer; a random 16-character code when omitted. */
  @Optional()
  @IsStr({
    blank: false,
    max: 190,
    pattern: SECRET_PATTERN,
    patternMessage: 'The giftcard code may only contain letters, numbers, dots and dashes.',
  })
  secret?: string;

  /** ISO 4217 code, e.g. `EUR`. */
  @Required()
  @IsCurrency()
  currency!: string;

  /** Initial value (on update: the new value, booked as the difference), money ≥ 0. */
  @Required()
  @IsMoney({ min: 0 })
  @ApiProperty({ example: '13.37' })
  value!: string | number;

  /** Test-mode card; default false. */
  @Optional()
  @IsBool()
  testmode?: boolean;

  /** UTC datetime after which the card cannot be used; null (the default) for no expiry. */
  @Nullable()
  @IsDateTimeString()
  expires?: string | null;

  /** Special terms; default null. */
  @Nullable()
  @IsStr()
  conditions?: string | null;

  /** Order position owning the card: its id or its ticket secret; default null. */
  @Nullable()
  @IsPositionRef()
  @ApiPropertyOptional({ oneOf: [{ type: 'integer' }, { type: 'string' }], nullable: true })
  owner_ticket?: number | string | null;
}

/** Body of `PATCH O/giftcards/{id}/`: every field optional. */
export class UpdateGiftCardDto extends PartialType(CreateGiftCardDto, { skipNullProperties: false }) {}

/** Body of `POST O/giftcards/{id}/transact/` (compat §3.4). */
export class GiftCardTransactDto {
  /** Amount: positive adds to the value, negative subtracts (money, two decimals). */
  @Required()
  @IsMoney()
  @ApiProperty({ example: '-10.00' })
  value!: string | number;

  /** Text explaining the transaction. */
  @Nullable()
  @IsStr()
  text?: string | null;

  /** Additional data stored with the transaction. */
  @Nullable()
  @IsJsonObject()
  @ApiPropertyOptional({ type: 'object', nullable: true, additionalProperties: true })
  info?: Record<string, unknown> | null;
}
