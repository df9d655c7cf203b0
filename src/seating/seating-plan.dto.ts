import { PartialType } from '@nestjs/swagger';
import { IsJsonObject, IsStr, Required } from '../common/validation/fields';

/** Body of `POST O/seatingplans/` and `PUT O/seatingplans/{id}/` (compat §3.5). */
export class CreateSeatingPlanDto {
  @Required()
  @IsStr({ max: 190, blank: false })
  name!: string;

  /** The plan's layout (pretix's seating-plan schema: `name`, `categories`, `size`, `zones[].rows[].seats[]`). */
  @Required()
  @IsJsonObject()
  layout!: Record<string, unknown>;
}

/** Body of `PATCH O/seatingplans/{id}/`: every field optional, none nullable (`"name": null` → 400 naming it). */
export class UpdateSeatingPlanDto extends PartialType(CreateSeatingPlanDto, { skipNullProperties: false }) {}
