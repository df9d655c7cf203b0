/** Sub-event item and variation overrides gain `disabled` and a sales window (pretix 2026 `SubEventItem`). */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class SubEventOverrideAvailability1796600000100 implements MigrationInterface {
  name = 'SubEventOverrideAvailability1796600000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['subevent_item_price', 'subevent_variation_price']) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "disabled" boolean NOT NULL DEFAULT false`);
      await queryRunner.query(`ALTER TABLE "${table}" ADD "available_from" TIMESTAMP WITH TIME ZONE`);
      await queryRunner.query(`ALTER TABLE "${table}" ADD "available_until" TIMESTAMP WITH TIME ZONE`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['subevent_variation_price', 'subevent_item_price']) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "available_until"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "available_from"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "disabled"`);
    }
  }
}
