import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applyOrdering } from '../../common/listing/ordering';
import { findManyInOne, findOneInOne, paginateInOne, relatedRows, RelatedSpec, relatedValue } from '../../common/listing/page-query';
import { PageRequest, Paginated } from '../../common/listing/pagination';
import { QueryFilters } from '../../common/listing/query-filters';
import { SqlFragment, sqlFragment } from '../../common/persistence/sql-fragment';
import { QuestionOption } from './question-option.entity';
import { Question } from './question.entity';

/** What a question's wire form needs besides its row. */
export interface QuestionRelated {
  items: number[];
  options: QuestionOption[];
}

/** A question another one depends on: its type and whether it is asked during check-in. */
export interface DependencyQuestionRow {
  id: number;
  type: string;
  ask_during_checkin: boolean;
}

/** A question whose `dependency_values` followed an option's identifier change. */
export interface ChangedDependentRow {
  id: number;
  dependency_values: string[];
}

/** Tables whose `identifier` is generated per event. */
export type IdentifierTable = 'question' | 'question_option';

/** `[id, identifier, position]` of an option, as {@link QuestionQueries.optionOf} yields it. */
export type OptionTriple = [number, string, number];

/** Orders option triples by position, then id (the order options are shown in). */
export function byOptionPosition(a: OptionTriple, b: OptionTriple): number {
  return a[2] - b[2] || a[0] - b[0];
}

/**
 * The SQL of the catalogue's `question`, `question_item` and `question_option` tables (compat §3.15, §3.16): list
 * and detail pages, the write lock, identifiers, dependency rules, item assignments; and the expressions other
 * contexts splice into their statements (only the catalogue names these tables). Stateless; every method runs on
 * the caller's `em`.
 */
@Injectable()
export class QuestionQueries {
  /** Scalar subquery: the identifier of the question whose id is the SQL expression `questionId`. */
  static identifierOf(questionId: string): SqlFragment {
    return sqlFragment(`(SELECT cq.identifier FROM question cq WHERE cq.id = ${questionId})`);
  }

  /**
   * Scalar subquery: `[id, identifier, position]` (jsonb) of the option whose id is the SQL expression `optionId`;
   * sort with {@link byOptionPosition}.
   */
  static optionOf(optionId: string): SqlFragment {
    return sqlFragment(
      `(SELECT jsonb_build_array(co.id, co.identifier, co.position) FROM question_option co WHERE co.id = ${optionId})`,
    );
  }

  /**
   * Scalar subquery: the questions of the event whose id is the SQL expression `eventId`, by position and id, as a
   * JSON array of `[id, identifier, type]` (the variables of ticket layouts, pdf_data). Alias `pq`.
   */
  static printQuestionsOf(eventId: string): SqlFragment {
    return sqlFragment(`(SELECT coalesce(jsonb_agg(jsonb_build_array(pq.id, pq.identifier, pq.type)
      ORDER BY pq.position, pq.id), '[]'::jsonb) FROM question pq WHERE pq.event_id = ${eventId})`);
  }

  /**
   * Scalar subquery (boolean): whether the item whose id is the SQL expression `itemId` has questions asked
   * during check-in (compat §3.21 `incomplete`; the redeem path reads the questions only then).
   */
  static hasCheckinQuestions(itemId: string): SqlFragment {
    return sqlFragment(`EXISTS (SELECT 1 FROM question cq JOIN question_item cqi ON cqi.question_id = cq.id
              WHERE cqi.item_id = ${itemId} AND cq.ask_during_checkin)`);
  }

  /**
   * Item ids and options of question `q`, as subqueries of the question's own statement (style.md "Data access").
   */
  related(em: EntityManager): RelatedSpec<QuestionRelated> {
    return {
      items: relatedValue<number[]>(
        "SELECT coalesce(array_agg(qi.item_id), '{}') FROM question_item qi WHERE qi.question_id = q.id",
      ),
      options: relatedRows<QuestionOption>(
        em.connection.getMetadata(QuestionOption),
        'o',
        'FROM question_option o WHERE o.question_id = q.id',
        'o.position, o.id',
      ),
    };
  }

  /**
   * One page of the event's questions with `related`, in one statement, presented by `present`. Filters
   * `identifier`, `ask_during_checkin`, `required`; ordering `id`, `position` (default `position,id`).
   * @throws ValidationFailed on malformed filters; NotFound "Invalid page."
   */
  async page<T>(
    em: EntityManager,
    eventId: number,
    filters: QueryFilters,
    page: PageRequest,
    related: RelatedSpec<QuestionRelated>,
    present: (question: Question, related: QuestionRelated) => T,
  ): Promise<Paginated<T>> {
    const qb = em
      .getRepository(Question)
      .createQueryBuilder('q')
      .where('q.event_id = :event', { event: eventId });
    const identifier = filters.str('identifier');
    if (identifier !== undefined) qb.andWhere('q.identifier = :identifier', { identifier });
    for (const [param, column] of [
      ['ask_during_checkin', 'ask_during_checkin'],
      ['required', 'required'],
    ] as const) {
      const value = filters.bool(param);
      if (value !== undefined) qb.andWhere(`q.${column} = :${param}`, { [param]: value });
    }
    applyOrdering(qb, filters, { id: 'q.id', position: 'q.position' }, ['position', 'id']);
    return paginateInOne(qb, page, related, present);
  }

  /** The questions with these ids (any event; the caller scopes) with `related`, in one statement. */
  many<T>(
    em: EntityManager,
    ids: readonly number[],
    related: RelatedSpec<QuestionRelated>,
    present: (question: Question, related: QuestionRelated) => T,
  ): Promise<T[]> {
    const qb = em.getRepository(Question).createQueryBuilder('q').where('q.id = ANY(:ids)', { ids });
    return findManyInOne(qb, related, present);
  }

  /**
   * One question of the event with `related`, in one statement.
   * @throws NotFound
   */
  async one<T>(
    em: EntityManager,
    eventId: number,
    id: number,
    related: RelatedSpec<QuestionRelated>,
    present: (question: Question, related: QuestionRelated) => T,
  ): Promise<T> {
    const qb = em
      .getRepository(Question)
      .createQueryBuilder('q')
      .where('q.id = :id AND q.event_id = :event', { id, event: eventId });
    return findOneInOne(qb, related, present);
  }

  /**
   * `related` of one question (loaded by the caller), in one statement.
   * @throws NotFound
   */
  async relatedOf(
    em: EntityManager,
    questionId: number,
    related: RelatedSpec<QuestionRelated>,
  ): Promise<QuestionRelated> {
    const qb = em.getRepository(Question).createQueryBuilder('q').where('q.id = :id', { id: questionId });
    return findOneInOne(qb, related, (_q, r) => r);
  }

  /**
   * The event's questions asked during check-in for a product, with `related`, by position then id (at most
   * 200); one statement.
   */
  async checkinQuestions<T>(
    em: EntityManager,
    eventId: number,
    itemId: number,
    related: RelatedSpec<QuestionRelated>,
    present: (question: Question, related: QuestionRelated) => T,
  ): Promise<T[]> {
    const qb = em
      .getRepository(Question)
      .createQueryBuilder('q')
      .where('q.event_id = :event AND q.ask_during_checkin', { event: eventId })
      .andWhere(
        'EXISTS (SELECT 1 FROM question_item qi WHERE qi.question_id = q.id AND qi.item_id = :item)',
        {
          item: itemId,
        },
      )
      .orderBy('q.position')
      .addOrderBy('q.id');
    const page = await paginateInOne(qb, new PageRequest(1, 200), related, present);
    return page.items;
  }

  /** Takes the transaction-scoped advisory lock `questions:<event>` (serializes question and option writes). */
  async lockEvent(em: EntityManager, eventId: number): Promise<void> {
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`questions:${eventId}`]);
  }

  /** Clears the dependency of the event's questions depending on `questionId`; returns their ids, ascending. */
  async clearDependents(em: EntityManager, eventId: number, questionId: number): Promise<{ id: number }[]> {
    return em.query(
      `WITH changed AS (
           UPDATE question SET dependency_question_id = NULL, dependency_values = '{}'
           WHERE event_id = $1 AND dependency_question_id = $2 RETURNING id
         ) SELECT id FROM changed ORDER BY id`,
      [eventId, questionId],
    );
  }

  /** Whether an option of the event other than `exceptId` (0 for none) has this identifier; one statement. */
  async optionIdentifierUsed(
    em: EntityManager,
    eventId: number,
    identifier: string,
    exceptId: number,
  ): Promise<boolean> {
    const rows: unknown[] = await em.query(
      'SELECT 1 FROM question_option WHERE event_id = $1 AND identifier = $2 AND id <> $3 LIMIT 1',
      [eventId, identifier, exceptId],
    );
    return rows.length > 0;
  }

  /** Whether a question or option (per `table`) of the event has this identifier; one statement. */
  async identifierUsed(
    em: EntityManager,
    table: IdentifierTable,
    eventId: number,
    identifier: string,
  ): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `SELECT 1 FROM ${table} WHERE event_id = $1 AND identifier = $2 LIMIT 1`,
      [eventId, identifier],
    );
    return rows.length > 0;
  }

  /**
   * Replaces `from` by `to` (or removes `from` when `to` is null) in the `dependency_values` of the event's
   * questions depending on `questionId`; returns the changed ones, by id. One statement.
   */
  async followOptionIdentifier(
    em: EntityManager,
    eventId: number,
    questionId: number,
    from: string,
    to: string | null,
  ): Promise<ChangedDependentRow[]> {
    return em.query(
      `WITH changed AS (
         UPDATE question
         SET dependency_values = CASE WHEN $4::text IS NULL THEN array_remove(dependency_values, $3)
                                      ELSE array_replace(dependency_values, $3, $4::text) END
         WHERE event_id = $1 AND dependency_question_id = $2 AND $3 = ANY(dependency_values)
         RETURNING id, dependency_values
       ) SELECT id, dependency_values FROM changed ORDER BY id`,
      [eventId, questionId, from, to],
    );
  }

  /** The identifiers among `identifiers` that options of the event use; one statement. */
  async usedOptionIdentifiers(
    em: EntityManager,
    eventId: number,
    identifiers: readonly string[],
  ): Promise<{ identifier: string }[]> {
    return em.query('SELECT identifier FROM question_option WHERE event_id = $1 AND identifier = ANY($2)', [
      eventId,
      identifiers,
    ]);
  }

  /** Replaces the item assignments of a question: a DELETE, then an INSERT when `items` is not empty. */
  async setItems(em: EntityManager, questionId: number, items: readonly number[]): Promise<void> {
    await em.query('DELETE FROM question_item WHERE question_id = $1', [questionId]);
    if (items.length > 0) {
      await em.query(
        'INSERT INTO question_item (question_id, item_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
        [questionId, items],
      );
    }
  }

  /** Whether a question of the event other than `exceptId` (0 for none) has this identifier; one statement. */
  async questionIdentifierTaken(
    em: EntityManager,
    eventId: number,
    identifier: string,
    exceptId: number,
  ): Promise<boolean> {
    const taken: unknown[] = await em.query(
      'SELECT 1 FROM question WHERE event_id = $1 AND identifier = $2 AND id <> $3 LIMIT 1',
      [eventId, identifier, exceptId],
    );
    return taken.length > 0;
  }

  /** Question `id` of the event with its type and check-in flag (zero or one row); one statement. */
  async dependencyQuestion(em: EntityManager, eventId: number, id: number): Promise<DependencyQuestionRow[]> {
    return em.query('SELECT id, type, ask_during_checkin FROM question WHERE id = $1 AND event_id = $2', [
      id,
      eventId,
    ]);
  }

  /** Whether following `dependency_question` links from `start` reaches `target` (bounded walk); one statement. */
  async chainReaches(em: EntityManager, start: number, target: number): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `WITH RECURSIVE chain(id, next, depth) AS (
       SELECT id, dependency_question_id, 1 FROM question WHERE id = $1
       UNION ALL
       SELECT q.id, q.dependency_question_id, c.depth + 1 FROM question q JOIN chain c ON q.id = c.next
       WHERE c.depth < 10000
     ) SELECT 1 FROM chain WHERE id = $2 LIMIT 1`,
      [start, target],
    );
    return rows.length > 0;
  }

  /** The identifiers of a question's options; one statement. */
  async optionIdentifiers(em: EntityManager, questionId: number): Promise<{ identifier: string }[]> {
    return em.query('SELECT identifier FROM question_option WHERE question_id = $1', [questionId]);
  }

  /** The ids among `ids` that are items of the event, share-locked (`FOR KEY SHARE`); one statement. */
  async itemsOfEventForWrite(em: EntityManager, eventId: number, ids: readonly number[]): Promise<unknown[]> {
    return em.query('SELECT id FROM item WHERE event_id = $1 AND id = ANY($2) FOR KEY SHARE', [eventId, ids]);
  }

  /** Whether a question of the event depends on `questionId`; one statement. */
  async hasDependents(em: EntityManager, eventId: number, questionId: number): Promise<boolean> {
    const dependents: unknown[] = await em.query(
      'SELECT 1 FROM question WHERE event_id = $1 AND dependency_question_id = $2 LIMIT 1',
      [eventId, questionId],
    );
    return dependents.length > 0;
  }
}
