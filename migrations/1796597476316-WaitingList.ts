/** Waiting list entries (`E/waitinglistentries/`) and the waiting list settings of events (`waiting_list_*` of `E/settings/`). */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class WaitingList1796597476316 implements MigrationInterface {
  name = 'WaitingList1796597476316';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "waiting_list_settings" ("event_id" integer NOT NULL, "enabled" boolean NOT NULL DEFAULT false, "auto" boolean NOT NULL DEFAULT true, "hours" integer NOT NULL DEFAULT '48', "limit_per_user" integer NOT NULL DEFAULT '1', CONSTRAINT "PK_31a052cc55b170226b84aa88817" PRIMARY KEY ("event_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "waiting_list_entry" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "subevent_id" integer, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "name_cached" character varying(255), "name_parts" jsonb NOT NULL DEFAULT '{}', "email" character varying(254) NOT NULL, "phone" character varying(128), "voucher_id" integer, "item_id" integer NOT NULL, "variation_id" integer, "locale" character varying(190) NOT NULL DEFAULT 'en', "priority" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_4ab90290a0377e208fd367619b5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_344cf31d93e0dfbe39e39de579" ON "waiting_list_entry" ("subevent_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_6c16bfffc107fbeb3fd6be84d5" ON "waiting_list_entry" ("voucher_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_211778735232444e6e6c6f7436" ON "waiting_list_entry" ("item_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_ea3e080f9c7fc142872f57f774" ON "waiting_list_entry" ("variation_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_waiting_list_open" ON "waiting_list_entry" ("event_id", "item_id", "variation_id", "subevent_id") WHERE voucher_id IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_waiting_list_event_created" ON "waiting_list_entry" ("event_id", "created") `,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_list_settings" ADD CONSTRAINT "FK_31a052cc55b170226b84aa88817" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_list_entry" ADD CONSTRAINT "FK_87b913e44eb9da7f18707893c8a" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_list_entry" ADD CONSTRAINT "FK_344cf31d93e0dfbe39e39de579b" FOREIGN KEY ("subevent_id") REFERENCES "subevent"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_list_entry" ADD CONSTRAINT "FK_6c16bfffc107fbeb3fd6be84d58" FOREIGN KEY ("voucher_id") REFERENCES "voucher"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_list_entry" ADD CONSTRAINT "FK_211778735232444e6e6c6f7436a" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_list_entry" ADD CONSTRAINT "FK_ea3e080f9c7fc142872f57f7742" FOREIGN KEY ("variation_id") REFERENCES "item_variation"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "waiting_list_entry" DROP CONSTRAINT "FK_ea3e080f9c7fc142872f57f7742"`,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_list_entry" DROP CONSTRAINT "FK_211778735232444e6e6c6f7436a"`,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_list_entry" DROP CONSTRAINT "FK_6c16bfffc107fbeb3fd6be84d58"`,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_list_entry" DROP CONSTRAINT "FK_344cf31d93e0dfbe39e39de579b"`,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_list_entry" DROP CONSTRAINT "FK_87b913e44eb9da7f18707893c8a"`,
    );
    await queryRunner.query(
      `ALTER TABLE "waiting_list_settings" DROP CONSTRAINT "FK_31a052cc55b170226b84aa88817"`,
    );
    await queryRunner.query(`DROP INDEX "public"."ix_waiting_list_event_created"`);
    await queryRunner.query(`DROP INDEX "public"."ix_waiting_list_open"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ea3e080f9c7fc142872f57f774"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_211778735232444e6e6c6f7436"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6c16bfffc107fbeb3fd6be84d5"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_344cf31d93e0dfbe39e39de579"`);
    await queryRunner.query(`DROP TABLE "waiting_list_entry"`);
    await queryRunner.query(`DROP TABLE "waiting_list_settings"`);
  }
}
