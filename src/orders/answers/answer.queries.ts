import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ValidatedAnswer } from './answers.rules';

/** An answer to insert: of an order position or of a cart position (the other id null). */
export interface NewAnswerRow {
  orderPositionId: number | null;
  cartPositionId: number | null;
  answer: ValidatedAnswer;
}

/**
 * The SQL of question answers (spec "Cart position"/"Order position" `answers`; compat §4.4): the only writer of
 * `question_answer` and `question_answer_option`, for order and cart positions. Stateless.
 */
@Injectable()
export class AnswerQueries {
  /**
   * Inserts answers of order or cart positions (one statement) and their options (one more when any); no
   * statement for no answers.
   */
  async insert(em: EntityManager, rows: readonly NewAnswerRow[]): Promise<void> {
    if (rows.length === 0) return;
    const result: { id: number }[] = await em.query(
      `INSERT INTO question_answer (order_position_id, cart_position_id, question_id, answer)
     SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[]) RETURNING id`,
      [
        rows.map((r) => r.orderPositionId),
        rows.map((r) => r.cartPositionId),
        rows.map((r) => r.answer.questionId),
        rows.map((r) => r.answer.answer),
      ],
    );
    const ids = result.map((r) => r.id);
    const links = rows.flatMap((r, i) => r.answer.optionIds.map((option) => [ids[i], option] as const));
    if (links.length === 0) return;
    await em.query(
      'INSERT INTO question_answer_option (answer_id, option_id) SELECT * FROM unnest($1::int[], $2::int[])',
      [links.map((l) => l[0]), links.map((l) => l[1])],
    );
  }

  /** The answers of an order position, with their option ids (one statement). */
  ofOrderPosition(em: EntityManager, positionId: number): Promise<ValidatedAnswer[]> {
    return em.query(
      `SELECT a.question_id AS "questionId", a.answer,
              COALESCE(array_agg(o.option_id ORDER BY o.option_id) FILTER (WHERE o.option_id IS NOT NULL), '{}')
                AS "optionIds"
         FROM question_answer a LEFT JOIN question_answer_option o ON o.answer_id = a.id
        WHERE a.order_position_id = $1
        GROUP BY a.id ORDER BY a.id`,
      [positionId],
    );
  }

  /**
   * The answer to `questionId` of the event's not-canceled position `positionId`, with the order's code and the
   * position's number (one statement), or undefined.
   */
  async answerOfPosition(
    em: EntityManager,
    eventId: number,
    positionId: number,
    questionId: number,
  ): Promise<{ answer: string; code: string; positionid: number } | undefined> {
    const rows: { answer: string; code: string; positionid: number }[] = await em.query(
      `SELECT a.answer, o.code, p.positionid
         FROM question_answer a JOIN order_position p ON p.id = a.order_position_id JOIN orders o ON o.id = p.order_id
        WHERE p.id = $1 AND p.event_id = $2 AND NOT p.canceled AND a.question_id = $3`,
      [positionId, eventId, questionId],
    );
    return rows[0];
  }

  /** Deletes the answers of an order position (their options cascade; one statement). */
  async deleteOfOrderPosition(em: EntityManager, positionId: number): Promise<void> {
    await em.query('DELETE FROM question_answer WHERE order_position_id = $1', [positionId]);
  }
}
