import { PartialType } from '@nestjs/swagger';
import { IsDateTimeString, IsI18nString, Nullable, Required } from '../../common/validation/fields';
import type { I18nString } from '../../common/values/i18n';

/**
 * Body of `POST E/items/{item}/program_times/`, `PUT E/items/{item}/program_times/{id}/` and of each entry of an
 * item's inline `program_times` on create (pretix 2025+ "Item program times"). Datetimes ISO 8601.
 */
export class CreateProgramTimeDto {
  /** Start of the slot (ISO 8601 datetime). */
  @Required()
  @IsDateTimeString()
  start!: string;

  /** End of the slot (ISO 8601 datetime); not before `start`. */
  @Required()
  @IsDateTimeString()
  end!: string;

  /** Venue of the slot (string or i18n object); null for none (default). */
  @Nullable()
  @IsI18nString()
  location?: string | I18nString | null;
}

/** Body of `PATCH E/items/{item}/program_times/{id}/`: every field optional. */
export class UpdateProgramTimeDto extends PartialType(CreateProgramTimeDto, { skipNullProperties: false }) {}
