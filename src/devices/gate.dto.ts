import { PartialType } from '@nestjs/swagger';
import { IsStr, Optional, Required } from '../common/validation/fields';

/** Body of `POST O/gates/` (extension; pretix `Gate`): `identifier` is generated when omitted or blank. */
export class CreateGateDto {
  @Required()
  @IsStr({ max: 190, blank: false })
  name!: string;

  /** Unique per organizer (case-insensitive); 8 characters of `ABCDEFGHJKLMNPQRSTUVWXYZ3789` when omitted. */
  @Optional()
  @IsStr({ max: 190 })
  identifier?: string;
}

/** Body of `PATCH O/gates/{id}/`: every field optional. */
export class UpdateGateDto extends PartialType(CreateGateDto, { skipNullProperties: false }) {}
