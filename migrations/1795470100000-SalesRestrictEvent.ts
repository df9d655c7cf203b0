/**
 * Deleting an event cannot destroy orders (compat §4.2): the event foreign keys of `orders` and `order_position`
 * are RESTRICT instead of CASCADE, so the database itself refuses to delete an event that has sales data, whatever
 * the application does.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

const KEYS: [table: string, constraint: string][] = [
  ['orders', 'FK_642ca308ac51fea8327e593b8ab'],
  ['order_position', 'FK_9ecd771115287966b2d8873fc6b'],
];

export class SalesRestrictEvent1795470100000 implements MigrationInterface {
  name = 'SalesRestrictEvent1795470100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, constraint] of KEYS) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${constraint}"`);
      await queryRunner.query(
        `ALTER TABLE "${table}" ADD CONSTRAINT "${constraint}" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, constraint] of KEYS) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${constraint}"`);
      await queryRunner.query(
        `ALTER TABLE "${table}" ADD CONSTRAINT "${constraint}" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
      );
    }
  }
}
