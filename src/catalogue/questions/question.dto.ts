import { ApiHideProperty, ApiSchema, OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, ValidateNested, ValidationArguments } from 'class-validator';
import {
  IsBool,
  IsChoice,
  IsDateString,
  IsDateTimeString,
  IsDecimalString,
  IsI18nString,
  IsInteger,
  IsIntList,
  IsStr,
  IsStrList,
  Nullable,
  Optional,
  Required,
  rule,
  MaxItems,
} from '../../common/validation/fields';
import { LIMITS } from '../../config/limits';
import type { I18nString } from '../../common/values/i18n';
import { CreateQuestionOptionDto } from './question-option.dto';
import { QUESTION_TYPES } from './question-rules';

/** Python's name of a JSON value's type, as DRF puts it in its messages. */
function jsonTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'object') return 'dict';
  return typeof v;
}

/** `options` must be a list; its entries are checked one by one (aligned errors) by the nested validation. */
const IsOptionList = () =>
  rule('isOptionList', (v) => {
    if (v === undefined || v === null) return null;
    if (!Array.isArray(v)) return `Expected a list of items but got type "${jsonTypeName(v)}".`;
    const nested = (v as unknown[]).find((x) => Array.isArray(x));
    return nested === undefined ? null : 'Invalid data. Expected a dictionary, but got list.';
  });

/**
 * Body of `POST E/questions/` (compat §3.15). Required: `question`, `type`, `items` (may be empty). Numbers of
 * `valid_number_*` are decimals (string or number, at most 16 digits, 6 of them decimals); `valid_date_*` are
 * `YYYY-MM-DD`; `valid_datetime_*` ISO 8601 (stored in UTC). `identifier` null or omitted: generated (8
 * characters `A-Z0-9`). `dependency_value` is the legacy single-value form of `dependency_values`: sent non-null,
 * it wins (stored as `[value]`). `options` creates the options together with the question.
 */
export class CreateQuestionDto {
  /** Multi-lingual question text. */
  @Required()
  @IsI18nString()
  question!: string | I18nString;

  /** Multi-lingual help text; default `{}`. */
  @Optional()
  @IsI18nString()
  help_text?: string | I18nString;

  /** `N`, `S`, `T`, `B`, `C`, `M`, `F`, `D`, `H`, `W`, `CC` or `TEL`. */
  @Required()
  @IsChoice(QUESTION_TYPES)
  type!: string;

  @Optional()
  @IsBool()
  required?: boolean;

  @Optional()
  @IsInteger()
  position?: number;

  /** Item ids of this event (may be empty). */
  @Required()
  @IsIntList()
  items!: number[];

  /** Unique within the event; generated when null or omitted. */
  @Nullable()
  @IsStr({ max: 190, blank: false })
  identifier?: string | null;

  @Optional()
  @IsBool()
  ask_during_checkin?: boolean;

  @Optional()
  @IsBool()
  show_during_checkin?: boolean;

  @Optional()
  @IsBool()
  hidden?: boolean;

  @Optional()
  @IsBool()
  print_on_invoice?: boolean;

  /** Decimal string, e.g. `"1.5"`; returned with six decimals. */
  @Nullable()
  @IsDecimalString(16, 6)
  valid_number_min?: string | number | null;

  @Nullable()
  @IsDecimalString(16, 6)
  valid_number_max?: string | number | null;

  /** `YYYY-MM-DD`. */
  @Nullable()
  @IsDateString()
  valid_date_min?: string | null;

  @Nullable()
  @IsDateString()
  valid_date_max?: string | null;

  /** ISO 8601 datetime. */
  @Nullable()
  @IsDateTimeString()
  valid_datetime_min?: string | null;

  @Nullable()
  @IsDateTimeString()
  valid_datetime_max?: string | null;

  @Optional()
  @IsBool()
  valid_file_portrait?: boolean;

  @Nullable()
  @IsInteger({ min: 0 })
  valid_string_length_min?: number | null;

  @Nullable()
  @IsInteger({ min: 0 })
  valid_string_length_max?: number | null;

  /** Id of a boolean or choice question of this event, or null. */
  @Nullable()
  @IsInteger()
  dependency_question?: number | null;

  /** `['True']`/`['False']` for a boolean dependency, else option identifiers of the dependency question. */
  @Optional()
  @IsStrList(undefined, { max: 190 })
  dependency_values?: string[];

  /** Deprecated single-value form of `dependency_values`. */
  @Nullable()
  @IsStr({ max: 190 })
  dependency_value?: string | null;

  /** Options created together with the question (create only). */
  @Optional()
  @IsOptionList()
  @MaxItems(LIMITS.listEntries)
  @ValidateNested({
    message: (args: ValidationArguments) =>
      `Invalid data. Expected a dictionary, but got ${jsonTypeName(args.value)}.`,
  })
  @Type(() => CreateQuestionOptionDto)
  options?: CreateQuestionOptionDto[];
}

/**
 * Body of `PUT E/questions/{id}/`: the fields of create; `options` is refused (400) whatever its value, so it is
 * only declared to survive whitelisting. An omitted or null `identifier` keeps the current one.
 */
@ApiSchema({
  description:
    'The fields of question creation. `options` is refused (400): use `questions/{question}/options/`.',
})
export class ReplaceQuestionDto extends OmitType(CreateQuestionDto, ['options']) {
  /** Refused on PUT/PATCH: use `E/questions/{question}/options/` (left out of the OpenAPI document). */
  @Allow()
  @ApiHideProperty()
  options?: unknown;
}

/** Body of `PATCH E/questions/{id}/`: every field optional; null only where create allows it. */
export class UpdateQuestionDto extends PartialType(ReplaceQuestionDto, { skipNullProperties: false }) {}
