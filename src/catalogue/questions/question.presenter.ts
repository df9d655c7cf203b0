import { isoUtc } from '../../common/values/datetime';
import type { I18nString } from '../../common/values/i18n';
import { Decimal } from '../../common/values/money';
import type { QuestionOption } from './question-option.entity';
import { QuestionOptionJson, toQuestionOptionJson } from './question-option.presenter';
import { legacyDependencyValue, QUESTION_TYPES } from './question-rules';
import type { Question } from './question.entity';
import {
  ApiDate,
  ApiDateTime,
  ApiDecimalString,
  ApiEnum,
  ApiI18n,
  ApiInt,
  ApiIntList,
} from '../../common/http/api-schemas';

/**
 * Wire form of a question (spec "Question", compat §3.15). `items` are ascending item ids; `options` are ordered
 * by position, then id; `valid_number_*` are decimal strings with six decimals (the `numeric(16,6)` column, as
 * pretix's DecimalField renders them, e.g. `"1.500000"`); `valid_datetime_*` UTC ISO 8601; `dependency_value` is
 * the legacy first entry of `dependency_values` or null.
 */
export class QuestionJson {
  @ApiInt()
  id!: number;
  @ApiI18n()
  question!: I18nString;
  /** `N`, `S`, `T`, `B`, `C`, `M`, `F`, `D`, `H`, `W`, `CC` or `TEL`. */
  @ApiEnum(QUESTION_TYPES)
  type!: string;
  required!: boolean;
  @ApiIntList()
  items!: number[];
  options!: QuestionOptionJson[];
  @ApiInt()
  position!: number;
  ask_during_checkin!: boolean;
  show_during_checkin!: boolean;
  identifier!: string;
  @ApiInt({ nullable: true })
  dependency_question!: number | null;
  dependency_values!: string[];
  hidden!: boolean;
  dependency_value!: string | null;
  print_on_invoice!: boolean;
  @ApiI18n()
  help_text!: I18nString;
  @ApiDecimalString(6, { nullable: true })
  valid_number_min!: string | null;
  @ApiDecimalString(6, { nullable: true })
  valid_number_max!: string | null;
  /** `YYYY-MM-DD`. */
  @ApiDate({ nullable: true })
  valid_date_min!: string | null;
  @ApiDate({ nullable: true })
  valid_date_max!: string | null;
  @ApiDateTime({ nullable: true })
  valid_datetime_min!: string | null;
  @ApiDateTime({ nullable: true })
  valid_datetime_max!: string | null;
  @ApiInt({ nullable: true })
  valid_string_length_min!: number | null;
  @ApiInt({ nullable: true })
  valid_string_length_max!: number | null;
  valid_file_portrait!: boolean;
}

/** A `numeric(16,6)` value as its six-decimal string, or null. */
export function decimal6OrNull(value: string | number | null | undefined): string | null {
  return value === null || value === undefined ? null : new Decimal(value).toFixed(6);
}

/**
 * Entity plus its item ids and options to the wire object, field by field.
 * @param items item ids of the question (any order; presented ascending)
 * @param options the question's options (any order; presented by position, then id)
 */
export function toQuestionJson(
  question: Question,
  items: readonly number[],
  options: readonly QuestionOption[],
): QuestionJson {
  const values = [...(question.dependencyValues ?? [])];
  return {
    id: question.id,
    question: question.question,
    type: question.type,
    required: question.required,
    items: [...items].sort((a, b) => a - b),
    options: [...options].sort((a, b) => a.position - b.position || a.id - b.id).map(toQuestionOptionJson),
    position: question.position,
    ask_during_checkin: question.askDuringCheckin,
    show_during_checkin: question.showDuringCheckin,
    identifier: question.identifier,
    dependency_question: question.dependencyQuestionId,
    dependency_values: values,
    hidden: question.hidden,
    dependency_value: legacyDependencyValue(values),
    print_on_invoice: question.printOnInvoice,
    help_text: question.helpText ?? {},
    valid_number_min: decimal6OrNull(question.validNumberMin),
    valid_number_max: decimal6OrNull(question.validNumberMax),
    valid_date_min: question.validDateMin,
    valid_date_max: question.validDateMax,
    valid_datetime_min: isoUtc(question.validDatetimeMin),
    valid_datetime_max: isoUtc(question.validDatetimeMax),
    valid_string_length_min: question.validStringLengthMin,
    valid_string_length_max: question.validStringLengthMax,
    valid_file_portrait: question.validFilePortrait,
  };
}
