/**
 * Ticket blocking (pretix "Order position endpoints" `add_block`/`remove_block`): the position's `blocked` list
 * (null when not blocked) and `blocked_secret`, one row per event and secret ever blocked, which scanners download
 * (`E/blockedsecrets/`).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class PositionBlocking1796552094676 implements MigrationInterface {
  name = 'PositionBlocking1796552094676';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "blocked_secret" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "position_id" integer,
        "secret" character varying(190) NOT NULL, "blocked" boolean NOT NULL,
        "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_005624e8bb0c4afb95c0f045cc6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_e9ca874c3d0e6d40e79cc4aa3e" ON "blocked_secret" ("position_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_blocked_secret_event_updated" ON "blocked_secret" ("event_id", "updated") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_blocked_secret_event_secret" ON "blocked_secret" ("event_id", "secret") `,
    );
    await queryRunner.query(`ALTER TABLE "order_position" ADD "blocked" jsonb`);
    await queryRunner.query(
      `ALTER TABLE "blocked_secret" ADD CONSTRAINT "FK_53d4de169688d8969808a4b5008" FOREIGN KEY ("event_id")
        REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "blocked_secret" ADD CONSTRAINT "FK_e9ca874c3d0e6d40e79cc4aa3ef" FOREIGN KEY ("position_id")
        REFERENCES "order_position"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_position" DROP COLUMN "blocked"`);
    await queryRunner.query(`DROP TABLE "blocked_secret"`);
  }
}
