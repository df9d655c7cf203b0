import type { EntityManager } from 'typeorm';
import type { SalesCatalogue } from '../../catalogue/sales/sales-catalogue.service';
import type { Event } from '../../organizers/event.entity';
import type { AnswerInputDto } from './answer-input.dto';
import { answerRefs, checkAnswers } from './answers.rules';

/**
 * The answers of every position of an order or a cart request, checked against the event's questions, which are
 * looked up within the event in one statement (compat §3.14/§4.4). Per position: the validated answers, and the
 * field errors (null when the position's answers are fine).
 */
export async function loadCheckedAnswers(
  catalogue: SalesCatalogue,
  em: EntityManager,
  event: Pick<Event, 'id' | 'organizerId'>,
  perPosition: readonly (readonly AnswerInputDto[] | undefined)[],
): Promise<ReturnType<typeof checkAnswers>> {
  const ids = answerRefs(perPosition);
  const { questions, options } = await catalogue.questions(em, ids.questionIds, ids.optionIds, false, event);
  return checkAnswers(perPosition, event.id, questions, options);
}
