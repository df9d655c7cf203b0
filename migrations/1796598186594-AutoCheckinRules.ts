/** Automatic check-in rules (pretix 2025+ plugin `autocheckin`, `E/auto_checkin_rules/`) with their products and variations. */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class AutoCheckinRules1796598186594 implements MigrationInterface {
  name = 'AutoCheckinRules1796598186594';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "auto_checkin_rule" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "list_id" integer, "mode" character varying(100) NOT NULL DEFAULT 'placed', "all_sales_channels" boolean NOT NULL DEFAULT true, "limit_sales_channels" text array NOT NULL DEFAULT '{}', "all_products" boolean NOT NULL DEFAULT true, "all_payment_methods" boolean NOT NULL DEFAULT true, "limit_payment_methods" text array NOT NULL DEFAULT '{}', CONSTRAINT "PK_c4952b98d82ec75cce302ba4b1e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_12285c8de11592176b6b02fbef" ON "auto_checkin_rule" ("event_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_35e4e533e8ddea0f8d92d25201" ON "auto_checkin_rule" ("list_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "auto_checkin_rule_item" ("rule_id" integer NOT NULL, "item_id" integer NOT NULL, CONSTRAINT "PK_4459ce1868aee810e7154639842" PRIMARY KEY ("rule_id", "item_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_34f0fb2806165eb6967938eae2" ON "auto_checkin_rule_item" ("item_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "auto_checkin_rule_variation" ("rule_id" integer NOT NULL, "variation_id" integer NOT NULL, CONSTRAINT "PK_eefd3f8cfed87288305d490fbd7" PRIMARY KEY ("rule_id", "variation_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_6d69fa5073b0519712b0509ed1" ON "auto_checkin_rule_variation" ("variation_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule" ADD CONSTRAINT "FK_12285c8de11592176b6b02fbef8" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule" ADD CONSTRAINT "FK_35e4e533e8ddea0f8d92d25201f" FOREIGN KEY ("list_id") REFERENCES "checkin_list"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule_item" ADD CONSTRAINT "FK_ab674e6f4ad5ef5eece94e95829" FOREIGN KEY ("rule_id") REFERENCES "auto_checkin_rule"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule_item" ADD CONSTRAINT "FK_34f0fb2806165eb6967938eae27" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule_variation" ADD CONSTRAINT "FK_4e7fea5fa2c907dcdae6c454227" FOREIGN KEY ("rule_id") REFERENCES "auto_checkin_rule"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule_variation" ADD CONSTRAINT "FK_6d69fa5073b0519712b0509ed12" FOREIGN KEY ("variation_id") REFERENCES "item_variation"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule_variation" DROP CONSTRAINT "FK_6d69fa5073b0519712b0509ed12"`,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule_variation" DROP CONSTRAINT "FK_4e7fea5fa2c907dcdae6c454227"`,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule_item" DROP CONSTRAINT "FK_34f0fb2806165eb6967938eae27"`,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule_item" DROP CONSTRAINT "FK_ab674e6f4ad5ef5eece94e95829"`,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule" DROP CONSTRAINT "FK_35e4e533e8ddea0f8d92d25201f"`,
    );
    await queryRunner.query(
      `ALTER TABLE "auto_checkin_rule" DROP CONSTRAINT "FK_12285c8de11592176b6b02fbef8"`,
    );
    await queryRunner.query(`DROP INDEX "public"."IDX_6d69fa5073b0519712b0509ed1"`);
    await queryRunner.query(`DROP TABLE "auto_checkin_rule_variation"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_34f0fb2806165eb6967938eae2"`);
    await queryRunner.query(`DROP TABLE "auto_checkin_rule_item"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_35e4e533e8ddea0f8d92d25201"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_12285c8de11592176b6b02fbef"`);
    await queryRunner.query(`DROP TABLE "auto_checkin_rule"`);
  }
}
