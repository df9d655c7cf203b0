import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  IsBool,
  IsChoice,
  IsDateTimeString,
  IsInteger,
  IsJsonObject,
  IsStr,
  Nullable,
  Optional,
  Required,
} from '../common/validation/fields';
import { MEDIUM_TYPES, type MediumType } from './reusable-medium.entity';

/**
 * Body of `POST O/reusablemedia/` (spec "Reusable medium"; compat §3.3). `id`, `organizer`, `created` and
 * `updated` are read-only and ignored.
 */
export class CreateReusableMediumDto {
  /** `barcode`, `nfc_uid` or `nfc_mf0aes`; immutable. */
  @Required()
  @IsChoice(MEDIUM_TYPES)
  @ApiProperty({ enum: MEDIUM_TYPES })
  type!: MediumType;

  /** Unique per organizer and type (another organizer may use the same); immutable. */
  @Required()
  @IsStr({ blank: false, max: 200 })
  identifier!: string;

  /** Whether the medium may be used (default true). */
  @Optional()
  @IsBool()
  active?: boolean;

  /** UTC datetime after which the medium is no longer valid; default null. */
  @Nullable()
  @IsDateTimeString()
  expires?: string | null;

  /**
   * Identifier of a customer account of the organizer (default null); another identifier answers 400.
   */
  @Nullable()
  @IsStr({ max: 190 })
  customer?: string | null;

  /** Id of an order position of the organizer (default null). */
  @Nullable()
  @IsInteger({ min: 1 })
  linked_orderposition?: number | null;

  /** Id of a gift card issued by the organizer (default null). */
  @Nullable()
  @IsInteger({ min: 1 })
  linked_giftcard?: number | null;

  /** Internal data that depends on the type (default `{}`). */
  @Optional()
  @IsJsonObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  info?: Record<string, unknown>;

  /** Internal notes (default null). */
  @Nullable()
  @IsStr()
  notes?: string | null;
}

/** Body of `PUT O/reusablemedia/{id}/`: `type` and `identifier` are kept (ignored when sent). */
export class ReplaceReusableMediumDto extends OmitType(CreateReusableMediumDto, [
  'type',
  'identifier',
] as const) {}

/** Body of `PATCH O/reusablemedia/{id}/`: every field optional; `type` and `identifier` ignored. */
export class UpdateReusableMediumDto extends PartialType(ReplaceReusableMediumDto, {
  skipNullProperties: false,
}) {}

/** Body of `POST O/reusablemedia/lookup/` (compat §3.3): both fields required. */
export class LookupReusableMediumDto {
  @Required()
  @IsChoice(MEDIUM_TYPES)
  @ApiProperty({ enum: MEDIUM_TYPES })
  type!: MediumType;

  @Required()
  @IsStr({ blank: false, max: 200 })
  identifier!: string;
}
