/**
 * Device extras (issue 26): uploaded files are bound to the credential that uploaded them (`POST /api/v1/upload`),
 * and log entries and print logs name the device that wrote them (pretix `LogEntry.device`, `PrintLog.device`).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class DeviceExtras1796700000400 implements MigrationInterface {
  name = 'DeviceExtras1796700000400';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "stored_file" ADD "credential_kind" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "stored_file" ADD "credential_id" integer`);
    await queryRunner.query(`ALTER TABLE "log_entry" ADD "device_id" integer`);
    await queryRunner.query(`ALTER TABLE "print_log" ADD "device_id" integer`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "print_log" DROP COLUMN "device_id"`);
    await queryRunner.query(`ALTER TABLE "log_entry" DROP COLUMN "device_id"`);
    await queryRunner.query(`ALTER TABLE "stored_file" DROP COLUMN "credential_id"`);
    await queryRunner.query(`ALTER TABLE "stored_file" DROP COLUMN "credential_kind"`);
  }
}
