import { ApiPropertyOptional } from '@nestjs/swagger';
import { PRINT_TYPES } from '../presentation/order-parts.presenter';
import {
  IsBool,
  IsChoice,
  IsDateTimeString,
  IsJsonObject,
  IsStr,
  Optional,
  Required,
} from '../../common/validation/fields';

/**
 * Body of `POST E/orderpositions/{id}/printlog/` (pretix "Order position endpoints"): `datetime`, `source`, `type`
 * required; `successful` (default true) and `info` (an object, default `{}`) optional. A missing field answers
 * `{"<field>": ["This field is required."]}`, a bad one names its field.
 */
export class PrintLogDto {
  /** When it was printed (ISO 8601). */
  @Required()
  @IsDateTimeString()
  datetime!: string;

  /** Source of the print job, e.g. the app's name (at most 255 characters). */
  @Required()
  @IsStr({ blank: false, max: 255 })
  source!: string;

  /** What was printed. */
  @Required()
  @IsChoice(PRINT_TYPES)
  type!: string;

  /** Whether the print job resulted in a print; default true. */
  @Optional()
  @IsBool()
  successful?: boolean;

  /** Client-dependent data; default `{}`. */
  @Optional()
  @IsJsonObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  info?: Record<string, unknown>;
}
