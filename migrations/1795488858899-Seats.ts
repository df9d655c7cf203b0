/** Seats of events, generated from their seating plans (compat §3.18); one seat per guid per event or date. */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Seats1795488858899 implements MigrationInterface {
  name = 'Seats1795488858899';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "seat" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "subevent_id" integer, "zone_name" character varying(190) NOT NULL, "row_name" character varying(190) NOT NULL, "row_label" character varying(190), "seat_number" character varying(190) NOT NULL, "seat_label" character varying(190), "seat_guid" character varying(190) NOT NULL, "product_id" integer, "blocked" boolean NOT NULL DEFAULT false, "sorting_rank" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_4e72ae40c3fbd7711ccb380ac17" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_459b72aacbcf1ee405375b09cd" ON "seat" ("event_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_seat_event_guid" ON "seat" ("event_id", "seat_guid") WHERE "subevent_id" IS NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_seat_subevent_guid" ON "seat" ("subevent_id", "seat_guid") WHERE "subevent_id" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_f4d9b4330bfbe9b3004e127ad0" ON "seat" ("product_id") `);
    await queryRunner.query(
      `ALTER TABLE "seat" ADD CONSTRAINT "FK_459b72aacbcf1ee405375b09cd5" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "seat" ADD CONSTRAINT "FK_f4d9b4330bfbe9b3004e127ad0d" FOREIGN KEY ("product_id") REFERENCES "item"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "seat" DROP CONSTRAINT "FK_f4d9b4330bfbe9b3004e127ad0d"`);
    await queryRunner.query(`ALTER TABLE "seat" DROP CONSTRAINT "FK_459b72aacbcf1ee405375b09cd5"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f4d9b4330bfbe9b3004e127ad0"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_459b72aacbcf1ee405375b09cd"`);
    await queryRunner.query(`DROP INDEX "public"."uq_seat_subevent_guid"`);
    await queryRunner.query(`DROP INDEX "public"."uq_seat_event_guid"`);
    await queryRunner.query(`DROP TABLE "seat"`);
  }
}
