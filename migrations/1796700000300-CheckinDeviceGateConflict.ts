/**
 * Scans remember the device and gate that made them (pretix `device_id`, `gate`; no foreign keys: devices belong
 * to a context above check-in) and, for an offline double entry, the entry they lost to (`conflict`).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class CheckinDeviceGateConflict1796700000300 implements MigrationInterface {
  name = 'CheckinDeviceGateConflict1796700000300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "checkin" ADD "device_id" integer`);
    await queryRunner.query(`ALTER TABLE "checkin" ADD "gate_id" integer`);
    await queryRunner.query(`ALTER TABLE "checkin" ADD "conflict" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "conflict"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "gate_id"`);
    await queryRunner.query(`ALTER TABLE "checkin" DROP COLUMN "device_id"`);
  }
}
