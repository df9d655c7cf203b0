/**
 * `event.catalogue_version`: a counter that every write to the event's catalogue tables (items, variations,
 * add-ons, bundles, categories, tax rules) bumps in the same transaction, through triggers, so that no writer
 * (service, CLI, raw SQL) can forget it. Rendered catalogue list pages are cached under this version
 * (`src/catalogue/rendered-lists.ts`; bench/README.md "List throughput"). The row update takes the event row's
 * FOR NO KEY UPDATE lock, so bumps are ordered by commit; it does not conflict with the FOR KEY SHARE locks that
 * sales take on the event.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each table with the expression that yields the event id of a row (`r` is NEW or OLD). */
const TABLES: [table: string, eventOf: (r: string) => string][] = [
  ['item', (r) => `${r}.event_id`],
  ['item_category', (r) => `${r}.event_id`],
  ['tax_rule', (r) => `${r}.event_id`],
  ['item_variation', (r) => `(SELECT i.event_id FROM item i WHERE i.id = ${r}.item_id)`],
  ['item_addon', (r) => `(SELECT i.event_id FROM item i WHERE i.id = ${r}.base_item_id)`],
  ['item_bundle', (r) => `(SELECT i.event_id FROM item i WHERE i.id = ${r}.base_item_id)`],
];

export class CatalogueVersion1795470000000 implements MigrationInterface {
  name = 'CatalogueVersion1795470000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "event" ADD "catalogue_version" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`CREATE FUNCTION "bump_all_catalogue_versions"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE event SET catalogue_version = catalogue_version + 1;
        RETURN NULL;
      END $$`);
    for (const [table, eventOf] of TABLES) {
      await queryRunner.query(`CREATE FUNCTION "bump_catalogue_version_${table}"() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP <> 'INSERT' THEN
            UPDATE event SET catalogue_version = catalogue_version + 1 WHERE id = ${eventOf('OLD')};
          END IF;
          IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR ${eventOf('NEW')} IS DISTINCT FROM ${eventOf('OLD')}) THEN
            UPDATE event SET catalogue_version = catalogue_version + 1 WHERE id = ${eventOf('NEW')};
          END IF;
          RETURN NULL;
        END $$`);
      await queryRunner.query(`CREATE TRIGGER "trg_catalogue_version_${table}"
        AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW
        EXECUTE FUNCTION "bump_catalogue_version_${table}"()`);
      await queryRunner.query(`CREATE TRIGGER "trg_catalogue_version_${table}_truncate"
        AFTER TRUNCATE ON "${table}" FOR EACH STATEMENT
        EXECUTE FUNCTION "bump_all_catalogue_versions"()`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table] of TABLES) {
      await queryRunner.query(`DROP TRIGGER "trg_catalogue_version_${table}_truncate" ON "${table}"`);
      await queryRunner.query(`DROP TRIGGER "trg_catalogue_version_${table}" ON "${table}"`);
      await queryRunner.query(`DROP FUNCTION "bump_catalogue_version_${table}"()`);
    }
    await queryRunner.query(`DROP FUNCTION "bump_all_catalogue_versions"()`);
    await queryRunner.query(`ALTER TABLE "event" DROP COLUMN "catalogue_version"`);
  }
}
