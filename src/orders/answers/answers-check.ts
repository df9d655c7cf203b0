import type { EntityManager } from 'typeorm';
import type { Principal } from '../../auth/principal';
import type { SalesCatalogue } from '../../catalogue/sales/sales-catalogue.service';
import type { Event } from '../../organizers/event.entity';
import type { UploadedFiles } from '../../tasks/uploads/uploaded-files.service';
import type { AnswerInputDto } from './answer-input.dto';
import { answerRefs, checkAnswers, FileChecks } from './answers.rules';

/**
 * File answers of a request (pretix: `file:<uuid>` from `POST /api/v1/upload`): the file store, the credential the
 * uploads must belong to, and whether to keep copies of the named uploads (not for a simulation).
 */
export interface AnswerFiles {
  uploads: UploadedFiles;
  principal: Principal;
  keep: boolean;
}

/**
 * The answers of every position of an order or a cart request, checked against the event's questions, which are
 * looked up within the event in one statement (compat §3.14/§4.4). Per position: the validated answers, and the
 * field errors (null when the position's answers are fine). With `files`, answers to file questions name uploads of
 * the credential (one more statement checks them all); with `keep`, each named upload is copied into a file that
 * does not expire and the answer becomes `file://<copy>` (one statement per file, in `em`'s transaction). Without
 * `files`, file answers are refused.
 */
export async function loadCheckedAnswers(
  catalogue: SalesCatalogue,
  em: EntityManager,
  event: Pick<Event, 'id' | 'organizerId'>,
  perPosition: readonly (readonly AnswerInputDto[] | undefined)[],
  files?: AnswerFiles,
): Promise<ReturnType<typeof checkAnswers>> {
  const ids = answerRefs(perPosition);
  const { questions, options } = await catalogue.questions(em, ids.questionIds, ids.optionIds, false, event);
  let checks: FileChecks | undefined;
  if (files) {
    const refs = perPosition
      .flatMap((list) => list ?? [])
      .filter((a) => questions.get(a.question)?.type === 'F' && typeof a.answer === 'string')
      .map((a) => a.answer!);
    checks = refs.length > 0 ? await files.uploads.check(em, files.principal, refs) : new Map();
  }
  const checked = checkAnswers(perPosition, event.id, questions, options, checks);
  if (files?.keep && !checked.errors.some((e) => e !== null)) {
    for (const answer of checked.answers.flat()) {
      if (answer.uploadId === undefined) continue;
      answer.answer = await files.uploads.keep(em, answer.uploadId, event.organizerId);
      delete answer.uploadId;
    }
  }
  return checked;
}
