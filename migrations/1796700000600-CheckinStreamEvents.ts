/**
 * Live check-in stream (`E/checkinlists/{list}/stream/`): an annulment gets its own number from the check-in id
 * sequence (`annul_event_id`), and the stream's replay reads a list's scans and annulments in number order
 * (`ix_checkin_list_id`, `ix_checkin_list_annul_event`).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class CheckinStreamEvents1796700000600 implements MigrationInterface {
  name = 'CheckinStreamEvents1796700000600';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "checkin" ADD "annul_event_id" integer`);
    await queryRunner.query(`CREATE INDEX "ix_checkin_list_id" ON "checkin" ("list_id", "id") `);
    await queryRunner.query(
      `CREATE INDEX "ix_checkin_list_annul_event" ON "checkin" ("list_id", "annul_event_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_checkin_list_annul_event"`);
    await queryRunner.query(`DROP INDEX "public"."ix_checkin_list_id"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "annul_event_id"`);
  }
}
