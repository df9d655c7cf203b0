import { ApiProperty, PartialType } from '@nestjs/swagger';
import {
  IsBool,
  IsDateTimeString,
  IsInteger,
  IsJsonObject,
  IsStr,
  Nullable,
  Optional,
  Required,
} from '../common/validation/fields';

/**
 * Body of `POST O/memberships/` and `PUT O/memberships/{id}/` (pretix `MembershipSerializer`). `id` is read-only.
 * On PUT and PATCH, `customer` and `testmode` are ignored (pretix keeps them).
 */
export class CreateMembershipDto {
  /** Identifier of a customer of the organizer. */
  @Required()
  @IsStr({ blank: false, max: 190 })
  customer!: string;

  /** Id of a membership type of the organizer. */
  @Required()
  @IsInteger({ min: 1 })
  membership_type!: number;

  /** UTC datetime. */
  @Required()
  @IsDateTimeString()
  date_start!: string;

  /** UTC datetime. */
  @Required()
  @IsDateTimeString()
  date_end!: string;

  /** Name parts of the person the membership is for (default null). */
  @Nullable()
  @IsJsonObject()
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  attendee_name_parts?: Record<string, string> | null;

  /** Default false; set on creation only. */
  @Optional()
  @IsBool()
  testmode?: boolean;
}

/** Body of `PATCH O/memberships/{id}/`: every field optional. */
export class UpdateMembershipDto extends PartialType(CreateMembershipDto, { skipNullProperties: false }) {}
