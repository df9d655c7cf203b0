import { absoluteUrl } from '../../common/http/request-origin';

/** What {@link presentAnswers} reads of an answer (`AnswerJson`). */
interface AnswerLike {
  question: number;
  answer: string;
}

/** The slugs of a position's organizer and event (of `PositionTicketFacts`). */
interface PositionSlugs {
  organizer: string;
  event: string;
}

/** The stored form of a file answer (`file://<kept file>`): shown as the URL of its download. */
const KEPT_FILE = 'file://';

/**
 * A position's answers as pretix shows them (`AnswerSerializer.to_representation`): a file answer is the absolute
 * URL of `E/orderpositions/{id}/answer/{question}/` (empty without the position's slugs, which every read path
 * loads).
 */
export function presentAnswers<A extends AnswerLike>(
  answers: A[],
  positionId: number,
  facts: PositionSlugs | null | undefined,
): A[] {
  if (!answers.some((a) => a.answer.startsWith(KEPT_FILE))) return answers;
  return answers.map((a) =>
    a.answer.startsWith(KEPT_FILE)
      ? {
          ...a,
          answer: facts
            ? absoluteUrl(answerFilePath(facts.organizer, facts.event, positionId, a.question))
            : '',
        }
      : a,
  );
}

/** Path of the file answer download of position `id`'s answer to `question` (pretix `orderposition-answer`). */
export function answerFilePath(organizer: string, event: string, id: number, question: number): string {
  return `/api/v1/organizers/${organizer}/events/${event}/orderpositions/${id}/answer/${question}/`;
}
