import type { I18nString } from '../../common/values/i18n';
import type { QuestionOption } from './question-option.entity';
import { ApiI18n, ApiInt } from '../../common/http/api-schemas';

/** Wire form of a question option (spec "Question option", compat §3.16). */
export class QuestionOptionJson {
  @ApiInt()
  id!: number;
  /** Unique among the options of the event. */
  identifier!: string;
  @ApiI18n()
  answer!: I18nString;
  @ApiInt()
  position!: number;
}

/** Entity to wire object, field by field. */
export function toQuestionOptionJson(option: QuestionOption): QuestionOptionJson {
  return {
    id: option.id,
    identifier: option.identifier,
    answer: option.answer,
    position: option.position,
  };
}
