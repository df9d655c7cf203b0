/**
 * Indexes of the exact filters of the order and position lists (issue 27 §6, README "Exact filters"), so that a
 * filter costs what its matches cost, not what the event's size does:
 * - orders: `(event_id | organizer_id, datetime)` for `datetime_since`/`datetime_until` (and the default ordering),
 *   `(event_id | organizer_id, status, datetime)` for `status`/`status__in`, `lower(email)` for `email`;
 * - order positions: `secret` alone (organizer-wide lists and orders by ticket secret; per event the unique
 *   `(event_id, secret)` serves), `lower(attendee_email)`, and `lower(attendee_name_of(attendee_name_parts))`.
 *
 * `attendee_name_of(parts)` is the attendee name the API shows (`nameFromParts` of order.presenter.ts): the
 * `_legacy` value when set, else the non-empty parts but `_scheme` joined by spaces (title, salutation, given,
 * middle, family, calling name first, others after in jsonb key order), trimmed; NULL when empty or not an object.
 * It is IMMUTABLE (only jsonb and text functions), as an index expression must be.
 * The generated part: the plain indexes; the expression indexes and the function are written by hand.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class OrderExactFilters1796700027600 implements MigrationInterface {
  name = 'OrderExactFilters1796700027600';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_orders_organizer_status_datetime" ON "orders" ("organizer_id", "status", "datetime") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_orders_event_status_datetime" ON "orders" ("event_id", "status", "datetime") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_orders_organizer_datetime" ON "orders" ("organizer_id", "datetime") `,
    );
    await queryRunner.query(`CREATE INDEX "ix_orders_event_datetime" ON "orders" ("event_id", "datetime") `);
    await queryRunner.query(`CREATE INDEX "ix_order_position_secret" ON "order_position" ("secret") `);

    await queryRunner.query(`CREATE INDEX "ix_orders_email_ci" ON "orders" (lower("email"))`);
    await queryRunner.query(
      `CREATE INDEX "ix_order_position_attendee_email_ci" ON "order_position" (lower("attendee_email"))`,
    );
    await queryRunner.query(`CREATE FUNCTION "attendee_name_of"(parts jsonb) RETURNS text
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT CASE
        WHEN jsonb_typeof(parts) <> 'object' THEN NULL
        WHEN coalesce(parts->>'_legacy', '') <> '' THEN parts->>'_legacy'
        ELSE nullif(btrim((SELECT string_agg(e.value, ' ' ORDER BY coalesce(array_position(
            ARRAY['title', 'salutation', 'given_name', 'middle_name', 'family_name', 'calling_name'], e.key), 99), e.n)
          FROM jsonb_each_text(parts) WITH ORDINALITY AS e(key, value, n)
          WHERE e.key <> '_scheme' AND e.value <> ''), E' \\t\\n\\r\\f\\v'), '')
      END
    $$`);
    await queryRunner.query(
      `CREATE INDEX "ix_order_position_attendee_name_ci" ON "order_position"
        (lower(attendee_name_of("attendee_name_parts")))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_order_position_attendee_name_ci"`);
    await queryRunner.query(`DROP FUNCTION "attendee_name_of"(jsonb)`);
    await queryRunner.query(`DROP INDEX "public"."ix_order_position_attendee_email_ci"`);
    await queryRunner.query(`DROP INDEX "public"."ix_orders_email_ci"`);
    await queryRunner.query(`DROP INDEX "public"."ix_order_position_secret"`);
    await queryRunner.query(`DROP INDEX "public"."ix_orders_event_datetime"`);
    await queryRunner.query(`DROP INDEX "public"."ix_orders_organizer_datetime"`);
    await queryRunner.query(`DROP INDEX "public"."ix_orders_event_status_datetime"`);
    await queryRunner.query(`DROP INDEX "public"."ix_orders_organizer_status_datetime"`);
  }
}
