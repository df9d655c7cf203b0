import type { SaleQuestion, SaleQuestionOption } from '../catalogue/sales/sales-catalogue.service';
import type { QuestionJson } from '../catalogue/questions/question.presenter';
import type { AnswerInputDto } from '../orders/answers/answer-input.dto';
import { checkAnswers, FileChecks, ValidatedAnswer } from '../orders/answers/answers.rules';

/**
 * Answers a scanner sends with a redeem (compat §3.21 `answers`: `{"<question id>": "value"}`), read for the
 * product's check-in questions: choice questions take option ids or option identifiers, several separated by
 * commas (`"12,13"`) or as a list; other types take the text that order answers take (booleans `true`/`false`,
 * dates `YYYY-MM-DD`, ...). Each answer is validated as order answers are; an invalid answer is left out, so its
 * question still counts as unanswered (pretix ignores it the same way). Answers to other questions are ignored. A
 * file question takes a `file:<uuid>` upload of the scanner's credential, checked in `files` ({@link fileAnswerRefs}
 * names them); one that names no usable upload is left out like any invalid answer.
 * @returns the valid answers, ready to store (a file answer with its `uploadId`, to keep before storing)
 */
export function readCheckinAnswers(
  eventId: number,
  questions: readonly QuestionJson[],
  given: Readonly<Record<string, unknown>> | undefined,
  files: FileChecks = new Map(),
): ValidatedAnswer[] {
  if (!given) return [];
  const inputs: AnswerInputDto[] = [];
  const saleQuestions = new Map<number, SaleQuestion>();
  const saleOptions = new Map<number, SaleQuestionOption>();
  for (const q of questions) {
    const raw = given[String(q.id)];
    if (raw === undefined || raw === null) continue;
    saleQuestions.set(q.id, { id: q.id, eventId, type: q.type, identifier: q.identifier });
    for (const o of q.options) saleOptions.set(o.id, { ...o, questionId: q.id });
    const input = toInput(q, raw);
    if (input) inputs.push(input);
  }
  // Each answer on its own "position", so that one invalid answer does not hide the others.
  const checked = checkAnswers(
    inputs.map((a) => [a]),
    eventId,
    saleQuestions,
    saleOptions,
    files,
  );
  return checked.answers.flat();
}

/** The `file:` references the scanner gives for the file questions among `questions` (to check them in one go). */
export function fileAnswerRefs(
  questions: readonly QuestionJson[],
  given: Readonly<Record<string, unknown>> | undefined,
): string[] {
  if (!given) return [];
  return questions
    .filter((q) => q.type === 'F')
    .map((q) => given[String(q.id)])
    .filter((v): v is string => typeof v === 'string' && v !== '');
}

/** The scanner's value as an order answer, or null when it cannot be one. */
function toInput(q: QuestionJson, raw: unknown): AnswerInputDto | null {
  if (q.type === 'C' || q.type === 'M') {
    const parts = (Array.isArray(raw) ? raw : String(raw as string | number).split(','))
      .map((p) => String(p as string | number).trim())
      .filter((p) => p !== '');
    const ids: number[] = [];
    for (const part of parts) {
      const option = q.options.find((o) => String(o.id) === part || o.identifier === part);
      if (!option) return null;
      ids.push(option.id);
    }
    return ids.length === 0 ? null : { question: q.id, options: ids };
  }
  if (typeof raw === 'string') return raw.trim() === '' ? null : { question: q.id, answer: raw };
  if (typeof raw === 'number' || typeof raw === 'boolean') return { question: q.id, answer: String(raw) };
  return null;
}
