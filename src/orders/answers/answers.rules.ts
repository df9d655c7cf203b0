import type { SaleQuestion, SaleQuestionOption } from '../../catalogue/sales/sales-catalogue.service';
import { invalidPk } from '../../common/errors';
import type { FieldErrors } from '../../common/errors';
import { checkDate, checkDecimal, checkTime } from '../../common/validation/fields';
import { isIsoDateTime, parseDateTime } from '../../common/values/datetime';
import type { FileReferenceCheck } from '../../tasks/uploads/uploaded-files.service';
import type { AnswerInputDto } from './answer-input.dto';

/** The `file:<uuid>` references of file answers, checked (`UploadedFiles.check`), by reference text. */
export type FileChecks = ReadonlyMap<string, FileReferenceCheck>;

/**
 * Pure rules of answers to questions (compat §6 "Carts", §4.4; pretix AnswerSerializer) for order and cart
 * positions. The questions and options come from the catalogue (SalesCatalogue.questions).
 */

/** A validated answer, ready to store. */
export interface ValidatedAnswer {
  questionId: number;
  answer: string;
  optionIds: number[];
  /** For a file answer: the upload it names (kept as a copy when stored, see `loadCheckedAnswers`). */
  uploadId?: string;
}

/** The question and option ids the answers of a request refer to (to load them in one go). */
export function answerRefs(perPosition: readonly (readonly AnswerInputDto[] | undefined)[]): {
  questionIds: number[];
  optionIds: number[];
} {
  return {
    questionIds: [...new Set(perPosition.flatMap((list) => (list ?? []).map((a) => a.question)))],
    optionIds: [...new Set(perPosition.flatMap((list) => (list ?? []).flatMap((a) => a.options ?? [])))],
  };
}

/**
 * Validates the answers of many positions with pretix's rules and messages (compat §6 "Carts"; pretix
 * AnswerSerializer): the question must belong to the event; choice questions need options of that question (at
 * most one for single choice) and their answer text is the options' names joined by ", "; other types must not
 * have options; booleans accept true/false/1/0 and are stored as `True`/`False`; numbers, dates (`YYYY-MM-DD`),
 * times and datetimes are checked and normalised; a file answer names an upload of the credential (`file:<uuid>`,
 * checked in `files`; without `files` file answers are refused as not supported). Required
 * questions and min/max limits are not enforced for API writes (pretix trusts API clients there). A question
 * answered twice keeps the first answer.
 * @param questions the questions and options named by {@link answerRefs}, of any event
 * @returns per position: the answers, or the aligned errors `[{}, {"question": [...]}]`
 */
export function checkAnswers(
  perPosition: readonly (readonly AnswerInputDto[] | undefined)[],
  eventId: number,
  questions: ReadonlyMap<number, SaleQuestion>,
  options: ReadonlyMap<number, SaleQuestionOption>,
  files?: FileChecks,
): { answers: ValidatedAnswer[][]; errors: (FieldErrors[] | null)[] } {
  const answers: ValidatedAnswer[][] = [];
  const errors: (FieldErrors[] | null)[] = [];
  for (const list of perPosition) {
    const out: ValidatedAnswer[] = [];
    const errs: FieldErrors[] = [];
    const seen = new Set<number>();
    for (const input of list ?? []) {
      const result = validateOne(input, eventId, questions, options, files);
      if ('error' in result) {
        errs.push(result.error);
        continue;
      }
      errs.push({});
      if (seen.has(result.value.questionId)) continue;
      seen.add(result.value.questionId);
      out.push(result.value);
    }
    answers.push(out);
    errors.push(errs.some((e) => Object.keys(e).length > 0) ? errs : null);
  }
  return { answers, errors };
}

/** pretix's message for a file answer that names no usable upload. */
export function fileNotFound(text: string): string {
  return `The submitted file ID "${text}" was not found.`;
}

function optionLabel(option: SaleQuestionOption): string {
  return option.answer.en ?? Object.values(option.answer)[0] ?? '';
}

function validateOne(
  input: AnswerInputDto,
  eventId: number,
  questions: ReadonlyMap<number, SaleQuestion>,
  options: ReadonlyMap<number, SaleQuestionOption>,
  files: FileChecks | undefined,
): { value: ValidatedAnswer } | { error: FieldErrors } {
  const question = questions.get(input.question);
  if (!question) return { error: { question: [invalidPk(input.question)] } };
  if (question.eventId !== eventId) {
    return { error: { question: ['The specified question does not belong to this event.'] } };
  }
  const nonField = (message: string) => ({ error: { non_field_errors: [message] } });
  const chosen = input.options ?? [];
  const text = input.answer ?? '';
  switch (question.type) {
    case 'F': {
      if (!files) return nonField('File answers are not supported through this API.');
      // pretix `_handle_file_upload`: options are ignored, the text must name a usable upload.
      const check = files.get(text);
      if (!check?.ok) return nonField(check?.message ?? fileNotFound(text));
      return { value: { questionId: question.id, answer: text, optionIds: [], uploadId: check.upload.id } };
    }
    case 'C':
    case 'M': {
      if (chosen.length === 0)
        return nonField('You need to specify options if the question is of a choice type.');
      if (question.type === 'C' && chosen.length > 1)
        return nonField('You can specify at most one option for this question.');
      const rows = [...new Set(chosen)].map((id) => options.get(id));
      if (rows.some((o) => o === undefined)) {
        const missing = chosen.find((id) => !options.has(id));
        return { error: { options: [invalidPk(missing!)] } };
      }
      if (rows.some((o) => o!.questionId !== question.id)) {
        return nonField('The specified option does not belong to this question.');
      }
      return {
        value: {
          questionId: question.id,
          answer: rows.map((o) => optionLabel(o!)).join(', '),
          optionIds: rows.map((o) => o!.id),
        },
      };
    }
  }
  if (chosen.length > 0)
    return nonField('You should not specify options if the question is not of a choice type.');
  let answer = text;
  switch (question.type) {
    case 'B':
      if (['true', 'True', '1', 'TRUE'].includes(text)) answer = 'True';
      else if (['false', 'False', '0', 'FALSE'].includes(text)) answer = 'False';
      else return nonField('Please specify "true" or "false" for boolean questions.');
      break;
    case 'N': {
      const err = checkDecimal(text, 50, 25);
      if (err) return nonField(err);
      break;
    }
    case 'D': {
      const err = checkDate(text);
      if (err) return nonField(err);
      break;
    }
    case 'H': {
      const err = checkTime(text);
      if (err) return nonField(err);
      answer = text.length === 5 ? `${text}:00` : text;
      break;
    }
    case 'W':
      if (!isIsoDateTime(text)) {
        return nonField(
          'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
        );
      }
      answer = parseDateTime(text).toISOString().replace('.000Z', 'Z');
      break;
  }
  return { value: { questionId: question.id, answer, optionIds: [] } };
}
