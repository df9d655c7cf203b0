import { PartialType } from '@nestjs/swagger';
import { IsI18nString, IsInteger, IsStr, Nullable, Optional, Required } from '../../common/validation/fields';
import type { I18nString } from '../../common/values/i18n';

/**
 * Body of `POST E/questions/{question}/options/` and `PUT .../options/{id}/`, and one entry of a question's inline
 * `options` on create (compat §3.16). `identifier` is generated (8 characters `A-Z0-9`) when omitted or null on
 * create; on PUT/PATCH an omitted or null identifier keeps the current one. Identifiers are unique among all
 * options of the event.
 */
export class CreateQuestionOptionDto {
  @Nullable()
  @IsStr({ max: 190, blank: false })
  identifier?: string | null;

  /** Multi-lingual answer text (a plain string is stored under `en`). */
  @Required()
  @IsI18nString()
  answer!: string | I18nString;

  /** Sort key, default 0. */
  @Optional()
  @IsInteger()
  position?: number;
}

/** Body of `PATCH E/questions/{question}/options/{id}/`: every field optional. */
export class UpdateQuestionOptionDto extends PartialType(CreateQuestionOptionDto, {
  skipNullProperties: false,
}) {}
