import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { QuestionQueries } from '../../catalogue/questions/question.queries';

/** A position as a redeem sees it (compat §3.21), with its order and its add-ons. */
export interface RedeemPosition {
  id: number;
  eventId: number;
  orderId: number;
  orderCode: string;
  orderStatus: string;
  orderAttention: boolean;
  /** The pending order admits its tickets (compat §3.21). */
  validIfPending: boolean;
  /** The order awaits approval. */
  requireApproval: boolean;
  itemId: number;
  variationId: number | null;
  subeventId: number | null;
  addonToId: number | null;
  canceled: boolean;
  secret: string;
  validFrom: Date | null;
  validUntil: Date | null;
  /** Its product has questions asked during check-in. */
  hasCheckinQuestions: boolean;
  /** Found by a revoked secret (compat §3.21 `revoked`). */
  revoked: boolean;
  /** The ticket carries a block (`blocked` not null): refused with reason `blocked`. */
  blocked: boolean;
  addons: { id: number; itemId: number; canceled: boolean }[];
}

/**
 * What a redeem reads of a position `p` and its order `o` (compat §3.21), but `revoked`, which depends on how the
 * position was found: its product's check-in questions and its add-ons as subqueries.
 */
const REDEEM_COLUMNS = `p.id, p.event_id AS "eventId", p.order_id AS "orderId", o.code AS "orderCode",
  o.status AS "orderStatus", o.checkin_attention AS "orderAttention", o.valid_if_pending AS "validIfPending",
  o.require_approval AS "requireApproval", p.item_id AS "itemId", p.variation_id AS "variationId",
  p.subevent_id AS "subeventId", p.addon_to_id AS "addonToId", p.canceled, p.secret, p.valid_from AS "validFrom",
  p.valid_until AS "validUntil", (p.blocked IS NOT NULL) AS blocked,
  ${QuestionQueries.hasCheckinQuestions('p.item_id')} AS "hasCheckinQuestions",
  (SELECT coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'itemId', a.item_id, 'canceled', a.canceled)
           ORDER BY a.positionid), '[]'::jsonb)
     FROM order_position a WHERE a.addon_to_id = p.id) AS addons`;

/**
 * The statements of a redeem on orders' own tables (compat §3.21): the ticket looked up and row-locked by secret,
 * id or revoked secret (one scan or a batch), and the answers a check-in stores or replaces. For
 * `CheckinPositions`, which the check-in context asks. Stateless.
 */
@Injectable()
export class RedeemLookupQueries {
  /**
   * The event's position with secret `identifier` or id `id` (else the one whose revoked secret `identifier` is),
   * with its order and add-ons (one statement); locks the position row (`FOR UPDATE OF p`) until the caller's
   * transaction ends (compat §3.21: exactly one `ok`). Null when there is none.
   */
  async forRedeem(
    em: EntityManager,
    eventId: number,
    identifier: string,
    id: number | null,
  ): Promise<RedeemPosition | null> {
    const rows: RedeemPosition[] = await em.query(
      `SELECT ${REDEEM_COLUMNS}, (p.secret <> $2 AND p.id IS DISTINCT FROM $3::int) AS revoked
         FROM order_position p JOIN orders o ON o.id = p.order_id
        WHERE p.event_id = $1 AND (p.secret = $2 OR p.id = $3::int
              OR p.id = (SELECT r.position_id FROM revoked_secret r WHERE r.event_id = $1 AND r.secret = $2
                          ORDER BY r.id DESC LIMIT 1))
        ORDER BY (p.secret = $2) DESC, (p.id = $3::int) IS TRUE DESC LIMIT 1
          FOR UPDATE OF p`,
      [eventId, identifier, id],
    );
    return rows[0] ?? null;
  }

  /**
   * The positions of the events `eventIds` whose secret (or a revoked secret) is one of `secrets`, as
   * {@link forRedeem} gives them, row-locked in id order (a batch of scans locks all its tickets at once without
   * deadlocking against single redeems, which lock one). Each row says which secret found it (`scanned`) and how:
   * `rank` 0 by the current secret, else 1 + how many newer revocations of the secret exist (the single redeem takes
   * the current secret first, then the newest revocation). One statement.
   */
  async forRedeemMany(
    em: EntityManager,
    eventIds: readonly number[],
    secrets: readonly string[],
  ): Promise<(RedeemPosition & { scanned: string; rank: number })[]> {
    return em.query(
      `WITH wanted AS (SELECT DISTINCT unnest($2::text[]) AS s),
            hits AS (
              SELECT p.id AS pid, w.s, 0 AS rank FROM wanted w
                JOIN order_position p ON p.secret = w.s AND p.event_id = ANY($1::int[])
              UNION ALL
              SELECT r.position_id, w.s,
                     row_number() OVER (PARTITION BY r.event_id, r.secret ORDER BY r.id DESC)::int
                FROM wanted w JOIN revoked_secret r ON r.secret = w.s AND r.event_id = ANY($1::int[]))
       SELECT ${REDEEM_COLUMNS}, (h.rank > 0) AS revoked, h.s AS scanned, h.rank
         FROM hits h JOIN order_position p ON p.id = h.pid AND p.event_id = ANY($1::int[])
         JOIN orders o ON o.id = p.order_id
        ORDER BY p.id
          FOR UPDATE OF p`,
      [[...eventIds], [...secrets]],
    );
  }

  /** The ids of `questionIds` the position has answered (one statement, no lock). */
  async answeredQuestionIds(
    em: EntityManager,
    positionId: number,
    questionIds: readonly number[],
  ): Promise<number[]> {
    const rows: { question_id: number }[] = await em.query(
      'SELECT question_id FROM question_answer WHERE order_position_id = $1 AND question_id = ANY($2)',
      [positionId, [...questionIds]],
    );
    return rows.map((r) => r.question_id);
  }

  /** Deletes the position's answers to `questionIds` (one statement; row locks of the deleted answers). */
  async deleteAnswers(em: EntityManager, positionId: number, questionIds: readonly number[]): Promise<void> {
    await em.query('DELETE FROM question_answer WHERE order_position_id = $1 AND question_id = ANY($2)', [
      positionId,
      questionIds,
    ]);
  }
}
