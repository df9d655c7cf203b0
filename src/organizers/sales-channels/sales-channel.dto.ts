import { PartialType } from '@nestjs/swagger';
import type { I18nString } from '../../common/values/i18n';
import { IsI18nString, IsInteger, IsStr, Optional, Required } from '../../common/validation/fields';

/** pretix's identifier rule (model `RegexValidator`): letters, digits, dots, dashes, underscores. */
export const CHANNEL_IDENTIFIER = /^[a-zA-Z0-9.\-_]+$/;

/**
 * Body of `POST O/saleschannels/` and `PUT O/saleschannels/{identifier}/` (pretix `SalesChannelSerializer`).
 * New channels must be of type `api` with an identifier starting with `api.`; `identifier` and `type` of an
 * existing channel cannot change (checked by the service with pretix's messages).
 */
export class CreateSalesChannelDto {
  /** Unique within the organizer; letters, digits, `.`, `-`, `_`; at most 200 characters. */
  @Required()
  @IsStr({
    blank: false,
    max: 200,
    pattern: CHANNEL_IDENTIFIER,
    patternMessage: 'The identifier may only contain letters, numbers, dots, dashes, and underscores.',
  })
  identifier!: string;

  /** `api` (default); only `api` channels can be created through the API. */
  @Optional()
  @IsStr({ blank: false, max: 200 })
  type?: string;

  @Required()
  @IsI18nString()
  label!: string | I18nString;

  /** Sort key (default 0). */
  @Optional()
  @IsInteger({ min: 0 })
  position?: number;
}

/** Body of `PATCH O/saleschannels/{identifier}/`. */
export class UpdateSalesChannelDto extends PartialType(CreateSalesChannelDto, {
  skipNullProperties: false,
}) {}
