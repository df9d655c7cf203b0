/**
 * The change feed (`GET O/changes/`, issue 27 §1; architecture.md "Change feed order"):
 * - `log_entry.xid`: the writing transaction's id (`pg_current_xact_id()` as bigint, set by a BEFORE INSERT
 *   trigger). Entries are numbered in `(xid, id)` order once their transaction id is below the oldest running
 *   transaction, so one that commits late is never skipped. Rows older than this migration have 0 (numbered by id).
 * - `change_feed_entry`: the numbered feed (sync context), `change_feed_state`: the sequencer's position (one row).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class ChangeFeed1796700002710 implements MigrationInterface {
  name = 'ChangeFeed1796700002710';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "log_entry" ADD "xid" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(
      `CREATE FUNCTION log_entry_stamp_xid() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         NEW.xid := pg_current_xact_id()::text::bigint;
         RETURN NEW;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER log_entry_stamp_xid BEFORE INSERT ON log_entry FOR EACH ROW EXECUTE FUNCTION log_entry_stamp_xid()`,
    );
    await queryRunner.query(`CREATE INDEX "ix_log_entry_xid" ON "log_entry" ("xid", "id") `);
    await queryRunner.query(
      `CREATE TABLE "change_feed_state" ("id" smallint NOT NULL, "last_xid" bigint NOT NULL DEFAULT '0',
        "last_log_entry_id" bigint NOT NULL DEFAULT '0', "last_sequence" bigint NOT NULL DEFAULT '0',
        "pruned_through" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_5705b3c7e54c22701e1e5ca219a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`INSERT INTO "change_feed_state" ("id") VALUES (1)`);
    await queryRunner.query(
      `CREATE TABLE "change_feed_entry" ("sequence" bigint NOT NULL, "log_entry_id" bigint NOT NULL,
        "organizer_id" integer NOT NULL, "event_id" integer, "resource" character varying(40) NOT NULL,
        "object_id" integer NOT NULL, "key" jsonb, "action" character varying(100) NOT NULL,
        "restated" boolean NOT NULL DEFAULT false, "deletes" boolean NOT NULL DEFAULT false, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "sequenced_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT "PK_5860dbbc6226a230a39821fb6ea" PRIMARY KEY ("sequence"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "ux_change_feed_entry_log_entry" ON "change_feed_entry" ("log_entry_id", "resource") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_change_feed_entry_organizer_sequence" ON "change_feed_entry" ("organizer_id", "sequence") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "change_feed_entry"`);
    await queryRunner.query(`DROP TABLE "change_feed_state"`);
    await queryRunner.query(`DROP TRIGGER log_entry_stamp_xid ON log_entry`);
    await queryRunner.query(`DROP FUNCTION log_entry_stamp_xid()`);
    await queryRunner.query(`DROP INDEX "public"."ix_log_entry_xid"`);
    await queryRunner.query(`ALTER TABLE "log_entry" DROP COLUMN "xid"`);
  }
}
