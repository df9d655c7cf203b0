import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { paginateRows } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { QuestionOption } from './question-option.entity';

/**
 * The SQL of the options list (`E/questions/{question}/options/`, compat §3.16); the other option statements are
 * in QuestionQueries. Stateless; every method runs on the caller's `em`.
 */
@Injectable()
export class QuestionOptionQueries {
  /**
   * One page of the question's options (rows and count in one statement), presented by `present`; ordering
   * `id`, `position` (default `position,id`).
   * @throws NotFound "Invalid page."
   */
  async page<T>(
    em: EntityManager,
    eventId: number,
    questionId: number,
    filters: QueryFilters,
    page: PageRequest,
    present: (rows: QuestionOption[]) => T[],
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(QuestionOption)
      .createQueryBuilder('o')
      .where('o.question_id = :question AND o.event_id = :event', { question: questionId, event: eventId });
    applyOrdering(qb, filters, { id: 'o.id', position: 'o.position' }, ['position', 'id']);
    return paginateRows(qb, page, present);
  }
}
