/**
 * Change stamps for the scanners' delta sync (`GET …/checkinlists/{list}/positions/?changed_since=`, README
 * "Delta sync for scanners"): every row a scanner's mirror depends on carries `changed_xid`, the id of the last
 * transaction that changed it (`pg_current_xact_id()`, as bigint), kept by database triggers so no write path can
 * forget it. The delta hands out stamps below `pg_snapshot_xmin(pg_current_snapshot())` only (architecture.md
 * "Change feed order"), so a transaction that commits late is delivered by the next call, never skipped.
 *
 * Each context stamps its own tables only:
 * - orders: `order_position` (any change of the row, and its add-ons when its attendee name changes, since an
 *   add-on without a name shows its parent's), via `orders` (status, code, e-mail, check-in attention and text,
 *   approval, `valid_if_pending`: all positions of the order), `question_answer` and `print_log` (the position
 *   whose answers / print logs the list shows); `revoked_secret` and `blocked_secret` (secrets a scanner drops).
 * - check-in: `checkin` (a scan on a list, or its annulment).
 * Rows older than this migration keep stamp 0: a cursor is always newer, and a full sync shows them anyway.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

/** SQL: the current transaction's id as bigint (assigns one; only writes call it). */
const XID = 'pg_current_xact_id()::text::bigint';

/** The stamped tables, their index and the column the index leads with. */
const STAMPED: [table: string, index: string, lead: string][] = [
  ['order_position', 'ix_order_position_event_changed', 'event_id'],
  ['revoked_secret', 'ix_revoked_secret_event_changed', 'event_id'],
  ['blocked_secret', 'ix_blocked_secret_event_changed', 'event_id'],
  ['checkin', 'ix_checkin_list_changed', 'list_id'],
];

export class ScannerDeltaStamps1796700000700 implements MigrationInterface {
  name = 'ScannerDeltaStamps1796700000700';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, index, lead] of STAMPED) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "changed_xid" bigint NOT NULL DEFAULT '0'`);
      await queryRunner.query(`CREATE INDEX "${index}" ON "${table}" ("${lead}", "changed_xid") `);
    }

    // Own-row stamps (orders: positions and secret lists; check-in: check-ins). A position update that changes
    // nothing (the row's text is the same) keeps its stamp.
    await queryRunner.query(`CREATE FUNCTION "delta_stamp_row"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' OR NEW::text IS DISTINCT FROM OLD::text THEN
          NEW.changed_xid := ${XID};
        END IF;
        RETURN NEW;
      END $$`);
    for (const [table] of STAMPED) {
      await queryRunner.query(`CREATE TRIGGER "delta_stamp_${table}"
        BEFORE INSERT OR UPDATE ON "${table}" FOR EACH ROW EXECUTE FUNCTION "delta_stamp_row"()`);
    }

    // Orders: an add-on without a name shows its parent's.
    await queryRunner.query(`CREATE FUNCTION "delta_stamp_addons"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE order_position SET changed_xid = ${XID} WHERE addon_to_id = NEW.id AND changed_xid <> ${XID};
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "delta_stamp_addons"
      AFTER UPDATE OF attendee_name_parts ON "order_position" FOR EACH ROW
      WHEN (OLD.attendee_name_parts IS DISTINCT FROM NEW.attendee_name_parts)
      EXECUTE FUNCTION "delta_stamp_addons"()`);

    // Orders: what a list shows or filters of the order moves all its positions (one statement per update).
    await queryRunner.query(`CREATE FUNCTION "delta_stamp_order_positions"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE order_position p SET changed_xid = ${XID}
          FROM new_rows n JOIN old_rows o ON o.id = n.id
         WHERE p.order_id = n.id AND p.changed_xid <> ${XID}
           AND (n.status, n.code, n.email, n.checkin_attention, n.checkin_text, n.require_approval, n.valid_if_pending)
               IS DISTINCT FROM
               (o.status, o.code, o.email, o.checkin_attention, o.checkin_text, o.require_approval, o.valid_if_pending);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "delta_stamp_order_positions"
      AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION "delta_stamp_order_positions"()`);

    // Orders: answers and print logs are part of a listed position.
    for (const [table, column] of [
      ['question_answer', 'order_position_id'],
      ['print_log', 'position_id'],
    ]) {
      await queryRunner.query(`CREATE FUNCTION "delta_stamp_position_of_${table}"() RETURNS trigger
        LANGUAGE plpgsql AS $$
        DECLARE pos integer;
        BEGIN
          pos := CASE WHEN TG_OP = 'DELETE' THEN OLD.${column} ELSE NEW.${column} END;
          IF pos IS NOT NULL THEN
            UPDATE order_position SET changed_xid = ${XID} WHERE id = pos AND changed_xid <> ${XID};
          END IF;
          IF TG_OP = 'UPDATE' AND OLD.${column} IS DISTINCT FROM NEW.${column} AND OLD.${column} IS NOT NULL THEN
            UPDATE order_position SET changed_xid = ${XID} WHERE id = OLD.${column} AND changed_xid <> ${XID};
          END IF;
          RETURN NULL;
        END $$`);
      await queryRunner.query(`CREATE TRIGGER "delta_stamp_position_of_${table}"
        AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW
        EXECUTE FUNCTION "delta_stamp_position_of_${table}"()`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['print_log', 'question_answer']) {
      await queryRunner.query(`DROP TRIGGER "delta_stamp_position_of_${table}" ON "${table}"`);
      await queryRunner.query(`DROP FUNCTION "delta_stamp_position_of_${table}"()`);
    }
    await queryRunner.query(`DROP TRIGGER "delta_stamp_order_positions" ON "orders"`);
    await queryRunner.query(`DROP FUNCTION "delta_stamp_order_positions"()`);
    await queryRunner.query(`DROP TRIGGER "delta_stamp_addons" ON "order_position"`);
    await queryRunner.query(`DROP FUNCTION "delta_stamp_addons"()`);
    for (const [table, index] of [...STAMPED].reverse()) {
      await queryRunner.query(`DROP TRIGGER "delta_stamp_${table}" ON "${table}"`);
      await queryRunner.query(`DROP INDEX "public"."${index}"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "changed_xid"`);
    }
    await queryRunner.query(`DROP FUNCTION "delta_stamp_row"()`);
  }
}
