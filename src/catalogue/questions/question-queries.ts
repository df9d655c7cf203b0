/**
 * SQL expressions over the catalogue's `question` and `question_option` tables for statements of other contexts
 * (the orders context presents answers with question and option identifiers in the statement of its page), so
 * that only the catalogue names its tables (issue 8 "Boundaries").
 */
export const questionQueries = {
  /** Scalar subquery: the identifier of the question whose id is the SQL expression `questionId`. */
  identifierOf: (questionId: string): string =>
    `(SELECT cq.identifier FROM question cq WHERE cq.id = ${questionId})`,

  /**
   * Scalar subquery: `[id, identifier, position]` (jsonb) of the option whose id is the SQL expression `optionId`;
   * sort with {@link byOptionPosition}.
   */
  /**
   * Scalar subquery: whether the item whose id is the SQL expression `itemId` has questions asked during
   * check-in (compat §3.21 `incomplete`; the redeem path reads the questions only then).
   */
  hasCheckinQuestions: (itemId: string): string =>
    `EXISTS (SELECT 1 FROM question cq JOIN question_item cqi ON cqi.question_id = cq.id
              WHERE cqi.item_id = ${itemId} AND cq.ask_during_checkin)`,

  optionOf: (optionId: string): string =>
    `(SELECT jsonb_build_array(co.id, co.identifier, co.position) FROM question_option co WHERE co.id = ${optionId})`,
};

/** `[id, identifier, position]` of an option, as {@link questionQueries.optionOf} returns it. */
export type OptionTriple = [number, string, number];

/** Orders option triples by position, then id (the order options are shown in). */
export function byOptionPosition(a: OptionTriple, b: OptionTriple): number {
  return a[2] - b[2] || a[0] - b[0];
}
