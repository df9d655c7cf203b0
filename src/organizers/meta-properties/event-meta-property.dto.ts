import { PartialType } from '@nestjs/swagger';
import { IsBool, IsStr, IsStrList, Nullable, Optional, Required } from '../../common/validation/fields';

/** Names of meta-data properties: letters, digits, `_` and `-` (they appear in `attr[<name>]` filters). */
const NAME = /^[A-Za-z0-9_-]+$/;

/** Body of `POST O/event_meta_properties/` and `PUT O/event_meta_properties/{id}/`. */
export class CreateEventMetaPropertyDto {
  /** Unique within the organizer; letters, digits, `_`, `-`; at most 50 characters. */
  @Required()
  @IsStr({
    blank: false,
    max: 50,
    pattern: NAME,
    patternMessage: 'The name may only contain letters, numbers, underscores and dashes.',
  })
  name!: string;

  /** Value assumed where none is set (default `""`); must be an allowed value when those are restricted. */
  @Optional()
  @IsStr({ max: 255 })
  default?: string;

  /** The only values allowed (null or empty: any). */
  @Nullable()
  @IsStrList(undefined, { max: 255 })
  allowed_values?: string[] | null;

  /** Only settable with `organizer.settings.general:write` (default false). */
  @Optional()
  @IsBool()
  protected?: boolean;
}

/** Body of `PATCH O/event_meta_properties/{id}/`. */
export class UpdateEventMetaPropertyDto extends PartialType(CreateEventMetaPropertyDto, {
  skipNullProperties: false,
}) {}
