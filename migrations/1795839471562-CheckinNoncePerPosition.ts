/**
 * A check-in nonce is unique per ticket and list among successful scans, and among failed ones (README "Security",
 * "Check-in"; as pretix): the same nonce on another ticket of the list is another scan, not a repeat of the first.
 * Failed scans without a ticket (unknown barcodes uploaded by scanners) stay unique per list and nonce (NULLS NOT
 * DISTINCT).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class CheckinNoncePerPosition1795839471562 implements MigrationInterface {
  name = 'CheckinNoncePerPosition1795839471562';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_checkin_nonce_ok"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_checkin_nonce_ok" ON "checkin" ("position_id", "list_id", "nonce") WHERE successful AND nonce IS NOT NULL`,
    );
    await queryRunner.query(`DROP INDEX "public"."uq_checkin_nonce_failed"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_checkin_nonce_failed" ON "checkin" ("position_id", "list_id", "nonce") NULLS NOT DISTINCT WHERE NOT successful AND nonce IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Scans of several tickets sharing a nonce on a list keep it on the first one only.
    await queryRunner.query(
      `UPDATE "checkin" c SET nonce = NULL WHERE nonce IS NOT NULL AND EXISTS (
         SELECT 1 FROM "checkin" o WHERE o.successful = c.successful AND o.list_id = c.list_id AND o.nonce = c.nonce
            AND o.id < c.id)`,
    );
    await queryRunner.query(`DROP INDEX "public"."uq_checkin_nonce_failed"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_checkin_nonce_failed" ON "checkin" ("list_id", "nonce") WHERE NOT successful AND nonce IS NOT NULL`,
    );
    await queryRunner.query(`DROP INDEX "public"."uq_checkin_nonce_ok"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_checkin_nonce_ok" ON "checkin" ("list_id", "nonce") WHERE successful AND nonce IS NOT NULL`,
    );
  }
}
