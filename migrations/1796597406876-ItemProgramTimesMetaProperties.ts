/**
 * pretix 2025+ catalogue fields: item program times (`item_program_time`, rows carry `event_id` and `item_id`),
 * item meta properties of events (`item_meta_property`, unique name per event; the values stay in the `meta_data`
 * objects of items and variations) and `item.hidden_if_item_available_mode`. Program times appear in the rendered
 * item lists, so their writes bump `event.catalogue_version` like the other catalogue tables (CatalogueVersion).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class ItemProgramTimesMetaProperties1796597406876 implements MigrationInterface {
  name = 'ItemProgramTimesMetaProperties1796597406876';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "item_program_time" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "item_id" integer NOT NULL, "starts_at" TIMESTAMP WITH TIME ZONE NOT NULL, "ends_at" TIMESTAMP WITH TIME ZONE NOT NULL, "location" jsonb, CONSTRAINT "PK_7d3bcd61a809f3eaea28144d96f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_cf4134a5de51eb3301880033fd" ON "item_program_time" ("event_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_eb6fb2b2d7fcae974d23df149f" ON "item_program_time" ("item_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "item_meta_property" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "name" character varying(50) NOT NULL, "default" text NOT NULL DEFAULT '', "required" boolean NOT NULL DEFAULT false, "allowed_values" text, CONSTRAINT "PK_a482aadb076c874b5045c5a5d76" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_item_meta_property_name" ON "item_meta_property" ("event_id", "name") `,
    );
    await queryRunner.query(
      `ALTER TABLE "item" ADD "hidden_if_item_available_mode" character varying(16) NOT NULL DEFAULT 'hide'`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_program_time" ADD CONSTRAINT "FK_cf4134a5de51eb3301880033fde" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_program_time" ADD CONSTRAINT "FK_eb6fb2b2d7fcae974d23df149fe" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_meta_property" ADD CONSTRAINT "FK_ce5c4fe7cedeaa1d915b47a46a6" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`CREATE FUNCTION "bump_catalogue_version_item_program_time"() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          UPDATE event SET catalogue_version = catalogue_version + 1 WHERE id = OLD.event_id;
        END IF;
        IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.event_id IS DISTINCT FROM OLD.event_id) THEN
          UPDATE event SET catalogue_version = catalogue_version + 1 WHERE id = NEW.event_id;
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER "trg_catalogue_version_item_program_time"
      AFTER INSERT OR UPDATE OR DELETE ON "item_program_time" FOR EACH ROW
      EXECUTE FUNCTION "bump_catalogue_version_item_program_time"()`);
    await queryRunner.query(`CREATE TRIGGER "trg_catalogue_version_item_program_time_truncate"
      AFTER TRUNCATE ON "item_program_time" FOR EACH STATEMENT
      EXECUTE FUNCTION "bump_all_catalogue_versions"()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP TRIGGER "trg_catalogue_version_item_program_time_truncate" ON "item_program_time"`,
    );
    await queryRunner.query(`DROP TRIGGER "trg_catalogue_version_item_program_time" ON "item_program_time"`);
    await queryRunner.query(`DROP FUNCTION "bump_catalogue_version_item_program_time"()`);
    await queryRunner.query(
      `ALTER TABLE "item_meta_property" DROP CONSTRAINT "FK_ce5c4fe7cedeaa1d915b47a46a6"`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_program_time" DROP CONSTRAINT "FK_eb6fb2b2d7fcae974d23df149fe"`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_program_time" DROP CONSTRAINT "FK_cf4134a5de51eb3301880033fde"`,
    );
    await queryRunner.query(`ALTER TABLE "item" DROP COLUMN "hidden_if_item_available_mode"`);
    await queryRunner.query(`DROP INDEX "public"."uq_item_meta_property_name"`);
    await queryRunner.query(`DROP TABLE "item_meta_property"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_eb6fb2b2d7fcae974d23df149f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_cf4134a5de51eb3301880033fd"`);
    await queryRunner.query(`DROP TABLE "item_program_time"`);
  }
}
